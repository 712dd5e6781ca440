"""The policy sensitivity section: whether a deck's verdict holds under other players.
A mixin of the report builder
(results.report): it writes through ``self.w`` and reads ``self.s``, the summary."""

from results import analysis
from results.analysis.sensitivity import html as sensitivity_html
from results.report.html import Cell, esc, rests_on, table


class SensitivitySection:
    def sensitivity(self):
        self.h2("sensitivity")
        self.w(sensitivity_html(self.s, table, esc, analysis.MODE_LABELS, Cell, rests_on))
        self.end()
