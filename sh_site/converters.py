"""Path converters. `<id:...>` is a row's primary key: 1 to 18 digits, so that a forged id too large for the
database's 64-bit integers answers 404 like any id that does not exist, never a database error."""

from django.urls import register_converter


class RowId:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(RowId, "id")


class LinkKey:
    """`<linkkey:...>`: an unlisted game's link key (games.models.game.new_link_key), URL-safe base64 of at least
    128 bits; anything else is no address at all."""

    regex = "[A-Za-z0-9_-]{22,64}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return str(value)


register_converter(LinkKey, "linkkey")
