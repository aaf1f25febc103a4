from django.contrib.admin.apps import AdminConfig as DjangoAdminConfig


class AdminConfig(DjangoAdminConfig):
    default_site = "sh_site.admin.AdminSite"

    def ready(self) -> None:
        super().ready()  # every app's admin.py, allauth.mfa's among them
        from django.contrib import admin

        from .admin import register_second_factors

        register_second_factors(admin.site)
