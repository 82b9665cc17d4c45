"""One model for background exports and restores: Job (kind "export" or "restore").

Creates offers.Job and deletes offers.ExportJob (accounts 0007 deletes accounts.RestoreJob).
The old jobs are dropped, not copied: a queued or running one was published to the old tasks,
which no longer exist, and a finished one only kept a page and a file for a few days (the
export files left on disk go with the periodic purge, by their age).
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('offers', '0018_negotiation_entry_logged_dates'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Job',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('export', 'Export'), ('restore', 'Restore')], max_length=8)),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('done', 'Done'), ('failed', 'Failed')], default='queued', max_length=8)),
                ('progress', models.PositiveSmallIntegerField(default=0)),
                ('task_id', models.CharField(blank=True, help_text='Task that owns the job.', max_length=64)),
                ('file_path', models.CharField(blank=True, max_length=300)),
                ('file_bytes', models.PositiveBigIntegerField(default=0)),
                ('format', models.CharField(blank=True, choices=[('csv', 'CSV'), ('xlsx', 'Excel (XLSX)'), ('json', 'JSON'), ('html', 'HTML report')], max_length=4, verbose_name='format')),
                ('language', models.CharField(blank=True, default='', max_length=10)),
                ('replace', models.BooleanField(default=False)),
                ('errors', models.JSONField(blank=True, default=list)),
                ('counts', models.JSONField(blank=True, default=dict, help_text='Records restored, by section.')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('owner', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='jobs', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.DeleteModel(
            name='ExportJob',
        ),
        migrations.AddConstraint(
            model_name='job',
            constraint=models.CheckConstraint(condition=models.Q(('progress__lte', 100)), name='job_progress_range'),
        ),
        migrations.AddConstraint(
            model_name='job',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('format__in', ['csv', 'xlsx', 'json', 'html']), ('kind', 'export')), models.Q(('format', ''), ('kind', 'restore')), _connector='OR'), name='job_format_valid'),
        ),
    ]
