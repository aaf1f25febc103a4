"""Measuring code, never shipped: the benchmark commands and their HTTP load helpers (`bench`), the outage
scenarios (`chaos`) and the benchmark's limit views. Installed only when the setting DEVTOOLS is on (the default
with DEBUG on), and left out of the package that pyproject builds."""
