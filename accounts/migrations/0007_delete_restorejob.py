"""Delete RestoreJob: background restores are kept by the app that runs them now (one job model).

The old restore jobs are dropped: a queued one was published to a task that no longer exists
(its upload stays in MEDIA_ROOT/restores/<user id> until that account is deleted), a
finished one only kept its result page.
"""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0006_revision_replaced_data'),
    ]

    operations = [
        migrations.DeleteModel(
            name='RestoreJob',
        ),
    ]
