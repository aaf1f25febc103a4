"""The fragment cache's Redis backend (settings.CACHES["fragments"]): Django's, made cheaper for what it holds.

Django's client makes a new redis.Redis for every call, and redis-py builds some 300 reply handlers in each, more
work than the round trip it wraps; its values are pickled, and read back through int() first, an exception a
value; its set_many is a MULTI of an MSET and one EXPIRE a key. A thread's older page, read for the first time,
asks the cache six times and writes it three, so each of those costs is paid several times a page. Here one client
is kept per pool, values are text stored as UTF-8 (a fragment is HTML; anything else is refused), and set_many sends
one SET with its expiry a key in a pipeline without MULTI (each SET is atomic; nothing reads the keys as a group).
"""

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class TextSerializer:
    """A fragment as its UTF-8 bytes."""

    def dumps(self, value: str) -> bytes:
        if not isinstance(value, str):
            raise TypeError(f"the fragment cache keeps text, not {type(value).__name__}")
        return value.encode()

    def loads(self, data: bytes) -> str:
        return data.decode()


class _Client(RedisCacheClient):
    def __init__(self, servers, **options):
        super().__init__(servers, serializer=TextSerializer, **options)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        if pool not in self._clients:  # a redis.Redis is safe to share: each command takes a connection from the pool
            self._clients[pool] = self._client(connection_pool=pool)
        return self._clients[pool]

    def set_many(self, data: dict, timeout: int | None) -> None:
        pipeline = self.get_client(write=True).pipeline(transaction=False)
        for key, value in data.items():
            if timeout == 0:  # Django's meaning: already expired
                pipeline.delete(key)
            else:
                pipeline.set(key, self._serializer.dumps(value), ex=timeout)
        pipeline.execute()


class FragmentCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _Client
