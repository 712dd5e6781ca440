"""The decisiveness section: how the games were decided, per mode. A mixin of the report builder
(results.report): it writes through ``self.w`` and reads ``self.s``, the summary."""

from results import analysis
from results.analysis.decisiveness import html as decisiveness_html
from results.report.html import esc, rests_on, table


class DecisivenessSection:
    def decisiveness(self):
        self.h2("decisiveness")
        self.w(decisiveness_html(self.s, table, esc, analysis.MODE_LABELS, rests_on))
        self.end()
