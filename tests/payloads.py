"""Bodies that the issues reported breaking the site, kept once for every test that sends them again."""

# Issue 27's absence: year 9999 at +14:00 is year 10000 in UTC, past what Python's datetime can hold; stored, it
# broke the player's pages, the ORM's reading of the row and the outbox's notice.
THE_ISSUE_S = {"starts_at": "9999-12-31T23:59:59+14:00", "ends_at": "9999-12-31T23:59:59-14:00"}
