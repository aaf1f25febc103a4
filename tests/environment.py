"""The environment the suite runs in, set before pytest-django reads the settings (pyproject's addopts load this
module as a plugin, ahead of every conftest): the processes the tests start inherit it.

The site defaults to production, which refuses to start without a SECRET_KEY: the suite asks for development mode,
as `make run` does, unless whoever runs it says otherwise.
"""

import os

os.environ.setdefault("DEBUG", "1")
