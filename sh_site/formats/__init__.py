"""Dates as each language writes them (FORMAT_MODULE_PATH): a day, a month's abbreviation and a year, with the
time after a comma. Django's own M capitalises every abbreviation ("1 Déc", "1 Gru"); French and Spanish write
"1 déc.", "1 dic." (N), Polish "1 gru" (b)."""
