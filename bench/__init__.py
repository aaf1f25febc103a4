"""Copies kept for side-by-side benchmarks: `engine_before` is the rules engine as it stood before it was made
faster (issue 14), measured in the same run as today's by `manage.py bench_engine`. Never imported by the site."""
