"""PostgreSQL's SQL compilers (Django's), with a long list of values in an `__in` lookup sent as one array parameter.

`column IN (%s, %s, ...)` takes a parameter a value, and a statement takes at most 65,535 (base.py); `column =
ANY(%s)` takes one, whatever the list's length, and PostgreSQL reads both alike (it turns IN (...) into = ANY). Only a
long list of plain values is sent so: a shorter one keeps the SQL it always had, conditions of indexes and
constraints among them, and a list holding expressions, or values that are lists themselves, keeps IN.
"""

from django.db.backends.postgresql import compiler
from django.db.models.expressions import ColPairs
from django.db.models.fields.related_lookups import RelatedIn
from django.db.models.lookups import In

LONG_LIST = 1000  # values; far more than a page asks for, far fewer than a statement may take


class ListsAsArrays:
    def compile(self, node):
        if type(node) in (In, RelatedIn) and _long_list(node):
            lhs_sql, lhs_params = node.process_lhs(self, self.connection)
            rhs_sql, rhs_params = node.process_rhs(self, self.connection)
            if _plain_values(rhs_sql, rhs_params):
                return f"{lhs_sql} = ANY(%s)", [*lhs_params, list(rhs_params)]
        return super().compile(node)


def _long_list(lookup: In) -> bool:
    return lookup.rhs_is_direct_value() and not isinstance(lookup.lhs, ColPairs) and len(lookup.rhs) >= LONG_LIST


def _plain_values(rhs_sql: str, rhs_params) -> bool:
    """Each value one parameter (no expression compiled into the list), none a list itself (an ArrayField's)."""
    placeholders = f"({', '.join(['%s'] * len(rhs_params))})"
    return rhs_sql == placeholders and not any(isinstance(value, list | tuple) for value in rhs_params)


class SQLCompiler(ListsAsArrays, compiler.SQLCompiler):
    pass


class SQLInsertCompiler(ListsAsArrays, compiler.SQLInsertCompiler):
    pass


class SQLDeleteCompiler(ListsAsArrays, compiler.SQLDeleteCompiler):
    pass


class SQLUpdateCompiler(ListsAsArrays, compiler.SQLUpdateCompiler):
    pass


class SQLAggregateCompiler(ListsAsArrays, compiler.SQLAggregateCompiler):
    pass
