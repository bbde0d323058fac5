"""Texts in the reader's language (SPEC 3.10).

`message` (standard library only, so the engine may use it) makes a text where it is
found: an English `str` that also keeps its message id and arguments. `catalogue` (Babel)
renders such a text in another language at the edge, from the gettext catalogues in
`locale/`; English needs no catalogue. `catalogue_check` (`make i18n`) extracts the ids
from the source and checks the catalogues. docs/languages.md says how to add a message.
"""
