"""Django settings, all from the environment (see docs/running/configuration.md). Production by default: DEBUG off, and
then SECRET_KEY, ALLOWED_HOSTS and SITE_URL must be given. `make run` asks for DEBUG=1, and finds a working default
for everything else: SQLite in the project folder, a broker that needs no server."""

from pathlib import Path

from .env import database_from_url, env_bool, env_int, env_list, env_str, require

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
if not DEBUG:
    require(
        ["SECRET_KEY", "ALLOWED_HOSTS", "SITE_URL"],
        "DEBUG is off (production)",
        hint="A new key: SECRET_KEY=$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))'). For "
        "development, DEBUG=1 instead (make run sets it).",
    )
SECRET_KEY = env_str("SECRET_KEY", "dev-only-insecure-key" if DEBUG else "")
if not SECRET_KEY:
    raise ValueError("SECRET_KEY must be set when DEBUG is off")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"] if DEBUG else [])
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")
SITE_NAME = env_str("SITE_NAME", "Secret Hitler by post")

INSTALLED_APPS = [
    "sh_site.apps.AdminConfig",  # Django's admin, behind a second factor (sh_site/admin.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # allauth's list of sessions says "3 hours ago"
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.usersessions",
    "django_prometheus",
    "games",
    "moderation",
]
# Measuring code (devtools/: benchmarks, outage scenarios): on with DEBUG, never in production unless asked for.
DEVTOOLS = env_bool("DEVTOOLS", DEBUG)
if DEVTOOLS:
    INSTALLED_APPS.append("devtools")

MIDDLEWARE = [
    "django_prometheus.middleware.PrometheusBeforeMiddleware",
    "sh_site.middleware.RequestIds",
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "sh_site.auth.renamed_backends",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "sh_site.second_factor.FactorChanges",
    "sh_site.accounts.tracked_sessions",
    "sh_site.middleware.user_preferences",
    "sh_site.middleware.content_security_policy",
    "sh_site.middleware.refuse_malformed_input",
    "sh_site.middleware.api_etags",
    "sh_site.middleware.fragment_writes",
    "django_prometheus.middleware.PrometheusAfterMiddleware",
]
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)

ROOT_URLCONF = "sh_site.urls"
WSGI_APPLICATION = "sh_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.views.notifications.unread_count",
                "moderation.context_processors.moderation_link",
            ],
        },
    },
]

DATABASES = {
    "default": database_from_url(
        env_str("DATABASE_URL", "sqlite:///db.sqlite3"),
        BASE_DIR,
        behind_pgbouncer=env_bool("PGBOUNCER_TRANSACTION_POOLING", False),
    )
}
# Beat's lock (sh_site/beat.py) is a session's: through PgBouncer in transaction mode, beat needs a direct URL.
BEAT_DATABASE_URL = env_str("BEAT_DATABASE_URL", "")
if env_bool("PGBOUNCER_TRANSACTION_POOLING", False):
    require(["BEAT_DATABASE_URL"], "PGBOUNCER_TRANSACTION_POOLING is on (beat's lock needs a direct connection)")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTHENTICATION_BACKENDS = [  # Django's and allauth's, loading the profile with the user (sh_site/auth.py)
    "sh_site.auth.ModelBackend",
    "sh_site.auth.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
ACCOUNT_ADAPTER = "sh_site.accounts.AccountAdapter"
ACCOUNT_FORMS = {  # allauth's forms with a length limit on every field (sh_site/accounts.py)
    key: f"sh_site.accounts.{form}"
    for key, form in {
        "login": "LoginForm", "signup": "SignupForm", "add_email": "AddEmailForm", "change_email": "ChangeEmailForm",
        "change_password": "ChangePasswordForm", "set_password": "SetPasswordForm",
        "reset_password": "ResetPasswordForm", "reset_password_from_key": "ResetPasswordKeyForm",
        "user_token": "UserTokenForm", "reauthenticate": "ReauthenticateForm",
        "request_login_code": "RequestLoginCodeForm", "confirm_login_code": "ConfirmLoginCodeForm",
        "confirm_email_verification_code": "ConfirmEmailVerificationCodeForm",
        "confirm_password_reset_code": "ConfirmPasswordResetCodeForm",
        "confirm_reauthentication_code": "ConfirmReauthenticationCodeForm", "change_phone": "ChangePhoneForm",
        "verify_phone": "VerifyPhoneForm",
    }.items()
}  # fmt: skip
ACCOUNT_LOGIN_METHODS = {"email", "username"}  # signing up asks for both: either signs in
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
# A new player who confirms their address in the browser they signed up in is signed in there and then, rather than
# asked for the password they just chose (allauth does it only for the session that signed up).
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
LOGIN_REDIRECT_URL = "/"
# Security notices by email (in the reader's language, sh_site/accounts.py): a password, an email address or a second
# factor changed, and a sign-in from a browser the account never signed in from (moderation/signals.py).
ACCOUNT_EMAIL_NOTIFICATIONS = True
# Asked again (password, or a second factor) before what matters, within ACCOUNT_REAUTHENTICATION_TIMEOUT seconds
# of the last time: changing the email address or the password, a second factor, an API token, a webhook, deleting
# the account, a moderator's first look at a running game's secrets (docs/running/accounts.md).
ACCOUNT_REAUTHENTICATION_REQUIRED = True
ACCOUNT_REAUTHENTICATION_TIMEOUT = env_int("ACCOUNT_REAUTHENTICATION_TIMEOUT", 300)
ACCOUNT_REAUTHENTICATION_METHODS = ("password", "mfa")  # not a code sent by email: the mailbox is not the person
# Behind a proxy (docs/running/index.md), the address a request comes from is the proxy's: allauth's limits per
# address and the sign-in list read it from X-Forwarded-For, as set by this many proxies in front of the site.
ALLAUTH_TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
# Second factors (allauth.mfa): an authenticator app (TOTP), recovery codes, and WebAuthn security keys and passkeys,
# a passkey alone signing in. Moderators and staff must have one (sh_site/second_factor.py). WebAuthn needs https,
# except on localhost in development.
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_WEBAUTHN_ALLOW_INSECURE_ORIGIN = DEBUG
MFA_TOTP_ISSUER = SITE_NAME
MFA_FORMS = {  # allauth's second-factor forms with a length limit on every field (sh_site/accounts.py)
    key: f"sh_site.accounts.{form}"
    for key, form in {
        "authenticate": "MFAAuthenticateForm", "reauthenticate": "MFAReauthenticateForm",
        "activate_totp": "ActivateTOTPForm", "deactivate_totp": "DeactivateTOTPForm",
        "generate_recovery_codes": "GenerateRecoveryCodesForm", "add_webauthn": "AddWebAuthnForm",
        "signup_webauthn": "SignupWebAuthnForm", "edit_webauthn": "EditWebAuthnForm",
        "authenticate_webauthn": "AuthenticateWebAuthnForm", "login_webauthn": "LoginWebAuthnForm",
        "reauthenticate_webauthn": "ReauthenticateWebAuthnForm",
    }.items()
}  # fmt: skip
# Ending another of one's sessions also stops pushes to the devices subscribed in it (sh_site/accounts.py).
USERSESSIONS_ADAPTER = "sh_site.accounts.UserSessionsAdapter"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr", "Français"), ("es", "Español"), ("pl", "Polski")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = "sh_site.formats"  # months as each language abbreviates them: "1 déc.", "1 gru"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]

# SMTP when EMAIL_HOST is set; the console (the web or worker process's output) otherwise.
EMAIL_HOST = env_str("EMAIL_HOST", "")
EMAIL_PORT = env_int("EMAIL_PORT", 587)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", EMAIL_PORT == 587)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", EMAIL_PORT == 465)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 30)
EMAIL_BACKEND = env_str(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend",
)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "moderator@localhost")
# Reply by email: the address replies to a per-game email go to, with {token} in its local part
# (e.g. "reply+{token}@reply.example.org", the domain delivered to `manage.py receive_email` or the LMTP
# server). Empty: emails carry no reply address and say to answer on the site.
REPLY_ADDRESS = env_str("REPLY_ADDRESS", "")
INBOUND_MAX_BYTES = env_int("INBOUND_MAX_BYTES", 1_000_000)  # a longer reply is dropped unread
# The API: requests per token per minute, counted in the database every process shares.
API_REQUESTS_PER_MINUTE = env_int("API_REQUESTS_PER_MINUTE", 120)
# Webhooks: addresses a webhook URL may resolve to although not public (tests: 127.0.0.1), and the
# time a receiver has to connect and answer.
WEBHOOK_ALLOWED_ADDRESSES = env_list("WEBHOOK_ALLOWED_ADDRESSES", [])
WEBHOOK_TIMEOUT_SECONDS = env_int("WEBHOOK_TIMEOUT_SECONDS", 5)
# Web Push (docs/running/push.md): the site's VAPID private key (`manage.py vapid_keys` makes one; unset, the
# site offers no push notifications; `make run` keeps one in var/), the contact push services may write to, and
# the time one has to answer. Push addresses are https, checked as webhooks' are (WEBHOOK_ALLOWED_ADDRESSES lists
# the exceptions).
VAPID_PRIVATE_KEY = env_str("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = env_str("VAPID_SUBJECT", f"mailto:{DEFAULT_FROM_EMAIL}")
PUSH_TIMEOUT_SECONDS = env_int("PUSH_TIMEOUT_SECONDS", 5)
# Replies through a hosted mail service's inbound webhook (django-anymail): /inbound/mailgun/, /inbound/postmark/,
# /inbound/amazon_ses/. The basic-auth secret ("user:password") the service is given in its webhook URL; Mailgun's
# signing key as well. Unset: those URLs answer 404.
ANYMAIL = {
    "WEBHOOK_SECRET": env_str("ANYMAIL_WEBHOOK_SECRET", ""),
    "MAILGUN_WEBHOOK_SIGNING_KEY": env_str("MAILGUN_WEBHOOK_SIGNING_KEY", ""),
    "AMAZON_SES_AUTO_CONFIRM_SNS_SUBSCRIPTIONS": False,  # no boto3 here: confirm the subscription in the console
}

# Celery: Redis in production (REDIS_URL); with no REDIS_URL, kombu's filesystem transport, which needs
# no server, so `make run` works on a bare machine. Its URL names a host, which the transport ignores: with none,
# kombu warns "No hostname was supplied" in every process that queues or runs a task (kombu 5.7.0).
REDIS_URL = env_str("REDIS_URL", "")
CELERY_BROKER_URL = REDIS_URL or "filesystem://localhost/"
# A Redis host that drops packets would hold a connection attempt for the system's TCP timeout, minutes, and a
# frozen one (it still accepts connections, then never answers) a command for ever: a move queuing its emails, or
# /healthz, gives up after this many seconds instead, for the connection and for each reply. Workers are not
# broken by the reply timeout: they send BRPOP and read its answer only once the socket is readable, and kombu's
# health_check_interval (25 s) drops a BRPOP whose answer is overdue.
BROKER_CONNECT_TIMEOUT = env_int("BROKER_CONNECT_TIMEOUT", 2)
if REDIS_URL:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "socket_connect_timeout": BROKER_CONNECT_TIMEOUT,
        "socket_timeout": BROKER_CONNECT_TIMEOUT,
    }
else:
    _queue_dir = BASE_DIR / "var" / "broker"
    (_queue_dir / "processed").mkdir(parents=True, exist_ok=True)  # any process may be the first to use it
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir),
        "data_folder_out": str(_queue_dir),
        "processed_folder": str(_queue_dir / "processed"),
        "store_processed": False,
        "control_folder": str(_queue_dir / "control"),  # kombu's default is relative: the working directory's
    }
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
# A broker outage of any length: workers keep trying to reconnect (by default they give up after 100 tries, about
# 50 minutes, and exit), and start even while it is down. Nothing is lost meanwhile: deadlines and emails live in
# the database, and the first sweep after the broker's return handles all that fell due.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# The cache of page fragments (games/fragments.py: a post as rendered, the lobby's lists): Redis in production
# (REDIS_URL), this process's memory otherwise, so that `make run` needs no server. A cache that does not answer
# within CACHE_TIMEOUT_SECONDS is passed by, and left alone for CACHE_RETRY_SECONDS: pages render without it.
# Django's default cache holds allauth's counts of sign-in and second-factor attempts and the authenticator codes
# already used: in the database, which every process shares and the site cannot run without, so that a limit is one
# limit however many processes serve, and a code used in one is refused in every other (its table is made by
# migration games 0033). The header's moderation link is remembered in each process's memory ("local").
CACHE_TIMEOUT_SECONDS = float(env_str("CACHE_TIMEOUT_SECONDS", "0.25"))
CACHE_RETRY_SECONDS = env_int("CACHE_RETRY_SECONDS", 30)
CACHE_URL = env_str("CACHE_URL", REDIS_URL)
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "site_cache",
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    },
    "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "local"},
    "fragments": {
        "BACKEND": "sh_site.cache.FragmentCache",  # Django's RedisCache, cheaper per call (sh_site/cache.py)
        "LOCATION": CACHE_URL,
        "KEY_PREFIX": "fragment",
        "OPTIONS": {"socket_connect_timeout": CACHE_TIMEOUT_SECONDS, "socket_timeout": CACHE_TIMEOUT_SECONDS},
    }
    if CACHE_URL
    else {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": "fragments",
        "OPTIONS": {"MAX_ENTRIES": 20000},
    },
}
# The test suite renders every fragment found in the cache again and fails on a difference (games/fragments.py).
FRAGMENT_CHECK = env_bool("FRAGMENT_CHECK", False)

SWEEP_INTERVAL_SECONDS = env_int("SWEEP_INTERVAL_SECONDS", 30)
# How often a game's page left open asks whether anything changed (a 304 costs one query): players see news
# within this many seconds.
LIVE_POLL_SECONDS = env_int("LIVE_POLL_SECONDS", 20)
# The load benchmarks' limit views (devtools/views.py): on only in the server `manage.py bench_moves` starts.
BENCH_VIEWS = env_bool("BENCH_VIEWS", False)
if BENCH_VIEWS and not DEVTOOLS:
    raise ValueError("BENCH_VIEWS needs DEVTOOLS on: the benchmark views live in the devtools app")
# Posting limits per person and game: far above a heated discussion, low enough to stop a flood.
POSTS_PER_MINUTE = env_int("POSTS_PER_MINUTE", 8)
POSTS_PER_HOUR = env_int("POSTS_PER_HOUR", 120)
# Six periodic tasks, each on its own so that one failing (a mail server down) never stops the others. A run
# that could not start in time is dropped: the next one does the same work.
CELERY_BEAT_SCHEDULE = {
    name: {"task": task, "schedule": SWEEP_INTERVAL_SECONDS, "options": {"expires": SWEEP_INTERVAL_SECONDS}}
    for name, task in (
        ("sweep-deadlines", "games.sweep_deadlines"),
        ("close-lobbies", "games.close_lobbies"),
        ("queue-reminders", "games.queue_reminders"),
        ("send-emails", "games.send_emails"),
        ("deliver-webhooks", "games.deliver_webhooks"),
        ("send-pushes", "games.send_pushes"),
    )
}
# Exactly one beat: it holds a PostgreSQL advisory lock while it runs (sh_site/beat.py).
CELERY_BEAT_SCHEDULER = "sh_site.beat:LockedScheduler"
CELERY_BEAT_SCHEDULE_FILENAME = env_str("BEAT_SCHEDULE_FILE", str(BASE_DIR / "var" / "celerybeat-schedule"))

SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = not DEBUG
SECURE_HSTS_PRELOAD = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Logs: JSON lines in production (LOG_FORMAT=json, the default with DEBUG off), each with its request id (also the
# X-Request-ID response header) or Celery task id, and the id of the game it is about. Errors are emailed to ADMINS
# ("Name <a@example.org>" or addresses, comma-separated), at most once per distinct error every
# ADMIN_EMAIL_INTERVAL seconds in each process.
LOG_FORMAT = env_str("LOG_FORMAT", "text" if DEBUG else "json")
ADMINS = [(address, address) for address in env_list("ADMINS", [])]
ADMIN_EMAIL_INTERVAL = env_int("ADMIN_EMAIL_INTERVAL", 600)
DEFAULT_EXCEPTION_REPORTER_FILTER = "sh_site.errors.ReportFilter"  # no URL with a password in an error email
SERVER_EMAIL = env_str("SERVER_EMAIL", DEFAULT_FROM_EMAIL)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "client_errors": {"()": "sh_site.logs.NoTracebackForClientErrors"},
        "context": {"()": "sh_site.logs.Context"},
        "secrets": {"()": "sh_site.logs.MaskSecrets"},
        "production": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "formatters": {
        "json": {"()": "sh_site.logs.JsonFormatter"},
        "text": {"format": "%(levelname)s %(name)s: %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["context", "client_errors", "secrets"],
            "formatter": LOG_FORMAT,
        },
        "mail_admins": {
            "class": "sh_site.logs.RateLimitedAdminEmailHandler",
            "level": "ERROR",
            "filters": ["production", "context", "secrets"],
        },
    },
    "root": {"handlers": ["console", "mail_admins"], "level": env_str("LOG_LEVEL", "INFO")},
    # Django's own console handler would print every request warning a second time: the root prints it once.
    "loggers": {"django": {"handlers": [], "level": env_str("LOG_LEVEL", "INFO"), "propagate": True}},
}
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # workers and beat log as above, not in Celery's own format
# The console email backend's emails are the worker's output, printed as they are (as the web process prints
# them): Celery would otherwise log every line they write to stdout as "WARNING celery.redirected", and mask
# their links. With any other backend (SMTP in production), stray prints stay logged as warnings.
CELERY_WORKER_REDIRECT_STDOUTS = EMAIL_BACKEND != "django.core.mail.backends.console.EmailBackend"

# /metrics (Prometheus): answered only with the bearer token METRICS_TOKEN or from an address in
# METRICS_ALLOWED_ADDRESSES (as the web process sees it: behind a proxy, the proxy's); with neither, off (404).
METRICS_TOKEN = env_str("METRICS_TOKEN", "")
METRICS_ALLOWED_ADDRESSES = env_list("METRICS_ALLOWED_ADDRESSES", [])
PROMETHEUS_EXPORT_MIGRATIONS = False
