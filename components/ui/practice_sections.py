"""The Practice page's sections: one per lesson, the warm-ups carried over from earlier topics, the seeded
exercises; and the label of each section's button."""
from __future__ import annotations

from components.course import prose, quiz
from components.ui import quiz_ui

TEXT = "practice"  # the page whose words these are
WARM_UPS = "warm-ups"
EXERCISES = "exercises"
SECTIONS = (*quiz.LESSONS, WARM_UPS, EXERCISES)


def section_label(section: str, counts) -> str:
    """A section's button: a lesson's title (with ✅ once all its questions are solved), or the two extra sections."""
    if section == WARM_UPS:
        return prose.text(TEXT, "Section warm-ups", title=quiz_ui.lesson_title(None))
    if section == EXERCISES:
        return prose.section(TEXT, "Section exercises")
    done, total = counts[section]
    return prose.text(TEXT, "Section solved" if total and done == total else "Section lesson",
                      title=quiz_ui.lesson_title(section))
