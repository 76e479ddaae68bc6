"""Practice questions: the question bank, answer parsing, checking and generated exercises.

One package, four roles: :mod:`.model` (question types, outcomes, the shared
prose sections), :mod:`.checking` (reading and checking answers), :mod:`.bank`
(every lesson's questions, lookup, progress), :mod:`.generated` (exercises drawn
from a seed) and :mod:`.texts` (the prose each question needs). Callers use
the names this module gathers: ``quiz.question(...)``, ``quiz.check(...)``.

No Streamlit import here: everything is plain data and plain functions, so it
is tested directly. Prose (prompts, hints, feedback, option labels,
explanations, solutions) lives in ``lessons/text/questions.md``; this module
only names the sections to show (see :func:`required_texts`) and supplies the
values for their ``{placeholders}``.

Every correct number, and every trap number, is computed by
:mod:`components.engine.metrics` from :mod:`components.course.scenarios` data.

Question types
--------------
- :class:`NumericQuestion`: the learner types a number. Accepted forms: a
  decimal with a point or a comma (``0.75``, ``0,75``), a fraction (``3/4``),
  a percentage (``75%``), with or without spaces. Tolerance: ±0.005 for values
  in [0, 1], ±0.5% (relative) for DCG values. Known wrong answers (traps) get
  targeted feedback; any other wrong answer gets generic feedback and the hint.
- :class:`ChoiceQuestion`: multiple choice, one or several correct options,
  an explanation for every option.
- :class:`OrderingQuestion`: order a pool of documents to maximise nDCG@k;
  any optimal order is right (checked by the engine, not against one answer).
- :class:`WarmUp`: think, then reveal the answer; not graded, never counted
  in progress. Each lesson after the first opens with one on the lesson
  before (``warmup.<lesson>``, its ``lesson`` set to the lesson it opens, its
  numbers in ``values``); two more are carried over from earlier topics
  (``lesson`` None, see :data:`EARLIER_WARM_UPS`). A lesson page's practice
  block keeps only :func:`is_graded` questions, so its warm-up shows once, at
  the top.

Generated exercises (:func:`generate_exercise`) draw a random ranking from a
seed (a 5-character code a class can read aloud; an old link's whole number
still gives its old exercise) and ask for Recall@k, hit rate@k, RR, MRR over
several queries, P@k, nDCG@k (either gain) or AP; each draw sets up one known
trap. The same seed gives the same exercise as long as the kinds stay as they are.
"""
from __future__ import annotations

from components.course.quiz.bank import (  # noqa: F401 (the package's names)
    BY_ID,
    EARLIER_WARM_UPS,
    QUESTIONS,
    WARM_UPS,
    best_swap_options,
    clean_solved,
    counted_ids,
    progress,
    question,
    questions_for,
    swap_outcomes,
    swapped,
    warm_up_for,
)
from components.course.quiz.checking import (  # noqa: F401 (the package's names)
    Parsed,
    check,
    check_choice,
    check_numeric,
    check_ordering,
    parse_answer,
)
from components.course.quiz.generated import (  # noqa: F401 (the package's names)
    DEFAULT_SEED,
    GENERATED_METRICS,
    GENERATED_TRAPS,
    RARE_SCENARIO_WEIGHT,
    RARE_SCENARIOS,
    SCENARIOS,
    SOLUTION_PARTS,
    GeneratedExercise,
    engine_value,
    generate_exercise,
)
from components.course.quiz.model import (  # noqa: F401 (the package's names)
    CARD_TEXTS,
    FEEDBACK_CHOICE_PARTIAL,
    FEEDBACK_CHOICE_WRONG,
    FEEDBACK_CORRECT,
    FEEDBACK_HIDDEN,
    FEEDBACK_NOT_A_NUMBER,
    FEEDBACK_ORDER_INVALID,
    FEEDBACK_ORDER_TOO_SHORT,
    FEEDBACK_PERCENT_SIGN,
    FEEDBACK_PICK,
    FEEDBACK_RECORDED,
    FEEDBACK_WRONG,
    GENERATED_MISSING,
    GENERATED_NONE_MISSING,
    LESSONS,
    MAX_INPUT_LENGTH,
    N_HINTS,
    ORDERING_TRAPS,
    PROGRESS_TEXTS,
    RELATIVE_TOLERANCE,
    SHARED_TEXTS,
    UNIT_TOLERANCE,
    ChoiceQuestion,
    NumericQuestion,
    OrderingQuestion,
    Outcome,
    Question,
    Status,
    Trap,
    WarmUp,
    distinct_traps,
    is_graded,
    joined,
    values_of,
    within,
)
from components.course.quiz.texts import (  # noqa: F401 (the package's names)
    all_required_texts,
    required_texts,
)
