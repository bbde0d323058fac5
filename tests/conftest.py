"""What every test shares: the command line run by the tests speaks English whatever the machine's
locale (the golden files are English); tests/texts/ sets the locale it tests itself."""

import os

for name in ("LC_MESSAGES", "LANG", "LANGUAGE"):
    os.environ.pop(name, None)
os.environ["LC_ALL"] = "C.UTF-8"
