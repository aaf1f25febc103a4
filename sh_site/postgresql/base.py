"""The site's PostgreSQL backend: django-prometheus's (every query counted for /metrics), within the limit PostgreSQL
puts on a statement's parameters.

The site binds parameters on the server (sh_site/env.py), where a statement carries at most 65,535 of them (their
count is 16 bits in the protocol). Django's backend declares no limit, so a cascading delete of many rows sent
statements over it and failed. Here the limit is declared, so that Django splits what it batches (bulk inserts and
updates, `in_bulk`, the lookups the deletion collector makes), and a long list in an `__in` lookup is sent as one
array (compiler.py): that also covers the statements Django does not split, such as the one UPDATE into which the
collector joins the lookups of all its batches when it sets a foreign key to NULL.
"""

from django.db.backends.postgresql import features, operations
from django.db.models import CompositePrimaryKey
from django.utils.functional import cached_property
from django_prometheus.db.backends.postgresql import base

MOST_PARAMETERS = 2**16 - 1  # a statement's, bound on the server


class DatabaseFeatures(features.DatabaseFeatures):
    @cached_property
    def max_query_params(self) -> int | None:
        # Bound by psycopg on the client (behind PgBouncer), the values are written into the statement's text.
        return MOST_PARAMETERS if self.uses_server_side_binding else None


class DatabaseOperations(operations.DatabaseOperations):
    compiler_module = "sh_site.postgresql.compiler"

    def bulk_batch_size(self, fields, objs) -> int:
        """How many of `objs` one statement may take when each takes a parameter for each of `fields`."""
        limit = self.connection.features.max_query_params
        columns = sum(len(field.fields) if isinstance(field, CompositePrimaryKey) else 1 for field in fields)
        if limit is None or not columns:
            return len(objs)
        return max(limit // columns, 1)


class DatabaseWrapper(base.DatabaseWrapper):
    features_class = DatabaseFeatures
    ops_class = DatabaseOperations
