"""One module per tie-break family; variants (cuts, limits) are data in the RuleSpec."""
