"""The admin shows user data view-only (services are its writers) and administers accounts."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse

from compensation.models import Band, Company, Package
from interviews.models import Process
from offers.models import Job
from tests.factories import BandFactory, CompanyFactory, PackageFactory, ProcessFactory

pytestmark = pytest.mark.django_db

# The project's own apps: every model of theirs in the admin is user data.
APPS = {"accounts", "compensation", "interviews", "offers"}
# Background jobs may be deleted by a superuser (their files go with the periodic clean-up).
DELETABLE = {Job}


def project_admins():
    return [(m, a) for m, a in admin.site._registry.items() if m._meta.app_label in APPS]


def test_every_user_data_admin_and_inline_is_view_only(admin_user):
    request = RequestFactory().get("/admin/")
    request.user = admin_user  # a superuser: Django's permissions would allow everything
    admins = project_admins()
    assert {Company, Band, Package, Process} <= {m for m, _ in admins}
    for model, model_admin in admins:
        assert not model_admin.has_add_permission(request), model
        assert not model_admin.has_change_permission(request), model
        assert model_admin.has_delete_permission(request) == (model in DELETABLE), model
        assert model_admin.has_view_permission(request), model
        for inline in model_admin.get_inline_instances(request):
            assert not inline.has_add_permission(request, None), (model, inline)
            assert not inline.has_change_permission(request), (model, inline)
            assert not inline.has_delete_permission(request), (model, inline)


@pytest.mark.parametrize(
    ("factory", "name"),
    [(CompanyFactory, "company"), (PackageFactory, "package"), (ProcessFactory, "process")],
)
def test_user_data_pages_show_without_a_save_button(admin_client, alice, factory, name):
    obj = factory(owner=alice)
    app = obj._meta.app_label
    assert admin_client.get(reverse(f"admin:{app}_{name}_changelist")).status_code == 200
    page = admin_client.get(reverse(f"admin:{app}_{name}_change", args=[obj.pk]))
    assert page.status_code == 200
    assert 'name="_save"' not in page.content.decode()
    assert admin_client.get(reverse(f"admin:{app}_{name}_add")).status_code == 403


def test_a_package_cannot_be_attached_to_another_users_private_company(admin_client, alice, bob):
    package = PackageFactory(owner=alice)
    private = CompanyFactory(owner=bob, is_private=True, name="Bob's secret")
    url = reverse("admin:compensation_package_change", args=[package.pk])
    response = admin_client.post(url, {"name": package.name, "company": private.pk})
    assert response.status_code == 403
    package.refresh_from_db()
    assert package.company_id != private.pk


def test_a_band_cannot_be_deleted_from_the_admin(admin_client, alice):
    band = BandFactory(owner=alice)
    url = reverse("admin:compensation_band_delete", args=[band.pk])
    assert admin_client.post(url, {"post": "yes"}).status_code == 403
    assert Band.objects.filter(pk=band.pk).exists()


def test_accounts_are_still_administered(admin_client, alice):
    User = get_user_model()
    response = admin_client.post(
        reverse("admin:auth_user_add"),
        {
            "username": "newcomer",
            "password1": "a-Sturdy-passphrase-42",
            "password2": "a-Sturdy-passphrase-42",
            "usable_password": "true",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert User.objects.get(username="newcomer").check_password("a-Sturdy-passphrase-42")
    url = reverse("admin:auth_user_password_change", args=[alice.pk])
    response = admin_client.post(
        url, {"password1": "b-Sturdy-passphrase-43", "password2": "b-Sturdy-passphrase-43"}
    )
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.check_password("b-Sturdy-passphrase-43")
    page = admin_client.get(reverse("admin:auth_user_change", args=[alice.pk]))
    assert 'name="_save"' in page.content.decode()
