"""Outages, made and measured (issue 19): the site's own processes and real services it depends on, started on
free ports, stopped and started again while games run, and what became of every deadline and email counted.

`services` starts and stops the pieces (a Redis server, a PostgreSQL cluster of its own, an SMTP server, the
site's web, worker and beat processes); `scenarios` runs one outage each and returns its figures. The suite runs
the scenarios with outages of seconds (tests/chaos/test_outages.py); `manage.py chaos` (`make chaos`) runs the
long versions and prints the figures.
"""
