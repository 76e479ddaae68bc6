"""The live class's protocol: the code, who leads (only the token's holder), what followers see, questions
answered and tallied, the end and the expiry of a class."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from components.live_class import protocol as live_class
from components.live_class.protocol import Lead, NotLeader, Question
from components.live_class.store import MemoryStore


@pytest.fixture
def store():
    return MemoryStore()


def test_a_new_class_has_a_readable_code_and_nothing_to_show_yet(store):
    lead = live_class.start(store)
    assert len(lead.code) == live_class.CODE_LENGTH and set(lead.code) <= set(live_class.CODE_ALPHABET)
    assert not set(lead.code) & set("0O1IL2Z5S8B")  # no look-alikes to misread from a projector
    now = live_class.view(store, lead.code)
    assert (now.version, now.page, now.target, now.question, now.revealed) == (1, None, {}, None, False)


def test_the_store_keeps_a_digest_of_the_token_never_the_token(store):
    lead = live_class.start(store)
    record = store.read(lead.code)[1]
    assert lead.token not in str(record) and len(record["lead"]) == 64


def test_the_leader_moves_the_class_and_each_change_is_a_new_version(store):
    lead = live_class.start(store)
    assert live_class.lead(store, lead, page="recall", target={"recall.k": 3}) == 2
    assert live_class.lead(store, lead, target={"recall.order": ["c1", "c2"]}) == 3
    now = live_class.view(store, lead.code)
    assert now.page == "recall" and now.target == {"recall.k": 3, "recall.order": ["c1", "c2"]}
    assert live_class.version(store, lead.code) == 3


def test_the_code_alone_cannot_lead_or_end_the_class(store):
    lead = live_class.start(store)
    follower = Lead(lead.code, "a guess at the token")
    with pytest.raises(NotLeader):
        live_class.lead(store, follower, page="ndcg")
    with pytest.raises(NotLeader):
        live_class.end(store, follower)
    assert not live_class.is_leader(store, follower) and live_class.is_leader(store, lead)
    assert live_class.view(store, lead.code).page is None


def test_an_ended_class_is_gone_for_everyone(store):
    lead = live_class.start(store)
    live_class.end(store, lead)
    assert live_class.view(store, lead.code) is None and live_class.version(store, lead.code) is None
    assert live_class.lead(store, lead, page="x") is None  # nothing to lead
    live_class.end(store, lead)  # ending twice is harmless


def test_a_class_expires_after_its_last_change():
    now = [0.0]
    store = MemoryStore(clock=lambda: now[0])
    lead = live_class.start(store, ttl=100)
    now[0] = 90
    live_class.lead(store, lead, page="mrr", ttl=100)
    now[0] = 180
    assert live_class.view(store, lead.code).page == "mrr"
    now[0] = 200
    assert live_class.view(store, lead.code) is None


def test_guesses_count_only_for_the_open_question_until_it_is_revealed(store):
    lead = live_class.start(store)
    assert not live_class.guess(store, lead.code, "ndcg3", "member-0", 0.7)  # nothing asked yet
    live_class.ask(store, lead, Question("ndcg3", "number"))
    for n, value in enumerate((0.667, 0.667, 0.913, 0.5)):
        assert live_class.guess(store, lead.code, "ndcg3", f"member-{n}", value)
    assert not live_class.guess(store, lead.code, "other", "member-0", 1.0)  # not the open question
    live_class.reveal(store, lead)
    assert not live_class.guess(store, lead.code, "ndcg3", "member-9", 0.1)  # too late
    assert live_class.tally(store, lead.code, "ndcg3") == {"0.667": 2, "0.913": 1, "0.5": 1}
    assert live_class.view(store, lead.code).revealed


def test_a_choice_counts_only_its_options(store):
    lead = live_class.start(store)
    live_class.ask(store, lead, Question("ap.map_vs_mrr", "choice", ("a", "b", "c")))
    assert live_class.guess(store, lead.code, "ap.map_vs_mrr", "member-0", "b")
    assert not live_class.guess(store, lead.code, "ap.map_vs_mrr", "member-1", "d")
    assert live_class.view(store, lead.code).question == Question("ap.map_vs_mrr", "choice", ("a", "b", "c"))
    live_class.ask(store, lead, Question("next", "number"))  # a new question opens, unrevealed
    assert not live_class.view(store, lead.code).revealed


@pytest.mark.parametrize("value", [1e308, -1e308, float("inf"), float("-inf"), float("nan"), 1.0001, -0.01, "9" * 500,
                                   "0.5", True])
def test_a_number_guess_outside_the_measures_range_is_not_taken(store, value):
    lead = live_class.start(store)
    live_class.ask(store, lead, Question("q", "number"))
    assert not live_class.guess(store, lead.code, "q", "member-0", value)
    assert live_class.tally(store, lead.code, "q") == {}


def test_a_number_guess_is_taken_from_zero_to_the_questions_top(store):
    lead = live_class.start(store)
    live_class.ask(store, lead, Question("dcg", "number", top=50.0))
    assert live_class.view(store, lead.code).question.top == 50.0
    for n, value in enumerate((0.0, 2 / 3, 50.0)):
        assert live_class.guess(store, lead.code, "dcg", f"member-{n}", value)
    assert not live_class.guess(store, lead.code, "dcg", "member-9", 50.5)
    assert live_class.tally(store, lead.code, "dcg") == {"0.0": 1, repr(2 / 3): 1, "50.0": 1}


def test_a_learner_counts_once_their_last_answer_standing(store):
    lead = live_class.start(store)
    live_class.ask(store, lead, Question("q", "number"))
    for member, value in (("ada", 0.5), ("bo", 0.5), ("ada", 0.667), ("ada", 0.75)):
        live_class.guess(store, lead.code, "q", member, value)
    assert live_class.tally(store, lead.code, "q") == {"0.5": 1, "0.75": 1}


def test_a_question_takes_at_most_its_answers_and_a_learner_who_answered_may_change_theirs(store):
    lead = live_class.start(store)
    live_class.ask(store, lead, Question("q", "number"))
    assert live_class.guess(store, lead.code, "q", "ada", 0.5, most=2)
    assert live_class.guess(store, lead.code, "q", "bo", 0.5, most=2)
    assert not live_class.guess(store, lead.code, "q", "cy", 0.5, most=2)  # full
    assert live_class.guess(store, lead.code, "q", "ada", 0.25, most=2)  # already counted: may change it
    assert live_class.tally(store, lead.code, "q") == {"0.5": 1, "0.25": 1}


def test_the_roll_call_takes_at_most_its_members_and_the_absent_make_room(store):
    lead = live_class.start(store)
    assert live_class.here(store, lead.code, "m-ada", "Ada", 1000.0, most=2)
    assert live_class.here(store, lead.code, "m-bo", "Bo", 1000.0, most=2)
    assert not live_class.here(store, lead.code, "m-cy", "Cy", 1001.0, most=2)  # full, everyone here
    assert live_class.here(store, lead.code, "m-ada", "Ada", 1001.0, most=2)  # on it: still seen
    later = 1000.0 + live_class.PRESENT_SECONDS + 1  # Bo has not been seen since
    assert live_class.here(store, lead.code, "m-cy", "Cy", later, most=2)
    assert set(store.members(lead.code)) == {"m-ada", "m-cy"}


def test_starting_again_ends_the_class_the_session_led(store):
    first = live_class.start(store)
    second = live_class.start(store, replacing=first)
    assert live_class.version(store, first.code) is None and live_class.is_leader(store, second)
    assert store.count() == 1
    stale = Lead(second.code, "not its token")
    third = live_class.start(store, replacing=stale)  # a lead that does not lead: the class stays
    assert live_class.version(store, second.code) == 1 and store.count() == 2 and third.code != second.code


def test_a_server_holds_at_most_its_live_classes(store):
    leads = [live_class.start(store, most=3) for _ in range(3)]
    with pytest.raises(live_class.ClassesFull):
        live_class.start(store, most=3)
    live_class.end(store, leads[0])
    live_class.start(store, most=3)  # one ended: room for one


def test_the_roll_call_counts_who_was_seen_lately_and_names_only_those_who_gave_a_name(store):
    lead = live_class.start(store)
    window = live_class.PRESENT_SECONDS
    for member, nickname, at in (("m-ada", "Ada", 1000.0), ("m-two", "", 1000.0 - window), ("m-zoe", " zoe ", 990.0),
                                 ("m-old", "Old", 1000.0 - window - 1), ("m-bo", "Bo", 970.0)):
        assert live_class.here(store, lead.code, member, nickname, at)
    live_class.here(store, lead.code, "m-bo", "Bo the Great", 999.0)  # the latest call wins
    assert live_class.roll_call(store, lead.code, now=1000.0) == live_class.RollCall(
        4, ("Ada", "Bo the Great", "zoe"))
    assert live_class.roll_call(store, lead.code, now=1000.0).unnamed == 1
    live_class.gone(store, lead.code, "m-ada")
    assert live_class.roll_call(store, lead.code, now=1000.0).count == 3


def test_no_roll_call_without_a_class(store):
    assert not live_class.here(store, "NOPE1", "m-ada", "Ada", 1.0)
    lead = live_class.start(store)
    live_class.here(store, lead.code, "m-ada", "Ada", 1.0)
    live_class.end(store, lead)
    assert live_class.roll_call(store, lead.code, now=1.0) == live_class.RollCall(0, ())


@given(st.text(max_size=80))
def test_a_nickname_is_one_short_printable_line(typed):
    nickname = live_class.normal_nickname(typed)
    assert len(nickname) <= live_class.MAX_NICKNAME and nickname == nickname.strip()
    assert "  " not in nickname and all(c == " " or (c.isprintable() and not c.isspace()) for c in nickname)
    assert live_class.normal_nickname(nickname) == nickname


@pytest.mark.parametrize("value, kept", [("abcdEFGH_-12", True), ("short", False), (None, False), (12345678, False),
                                         ("has space in it", False), ("<script>x</script>", False)])
def test_a_member_id_read_back_is_checked(value, kept):
    assert live_class.normal_member(value) == (value if kept else None)
    assert live_class.normal_member(live_class.new_member()) is not None


def test_codes_are_typed_loosely(store):
    lead = live_class.start(store)
    typed = f" {lead.code[:2].lower()}-{lead.code[2:]} "
    assert live_class.normal_code(typed) == lead.code
    assert live_class.normal_code("0O1IL3") is None and live_class.normal_code("ABC") is None
    assert live_class.normal_code("ACDEF") is None  # a code of five, as they were: too short


@given(st.text(max_size=12))
def test_any_text_is_a_code_or_none(text):
    code = live_class.normal_code(text)
    assert code is None or (len(code) == live_class.CODE_LENGTH and set(code) <= set(live_class.CODE_ALPHABET))


def test_a_full_store_gives_up_with_a_clear_error(monkeypatch, store):
    monkeypatch.setattr(live_class, "new_code", lambda: "AAAAAA")
    live_class.start(store)
    with pytest.raises(RuntimeError, match="no free class code"):
        live_class.start(store)


WHERE = {"recall.k": "F1", "recall.editor": "F1", "recall.compare_k": "F2"}  # key -> the fragment that built it


def test_a_change_inside_fragments_reruns_only_those_fragments():
    taken = {"recall.k": 5, "recall.editor": {"order": ["a", "b"]}, "recall.compare_k": 3, "reveal": False}
    target = {**taken, "recall.k": 2, "recall.compare_k": 4}
    shown = dict(taken)
    split = live_class.split_by_fragment(target, taken, WHERE, lambda key, value: shown.get(key) == value)
    assert split == {"F1": {"recall.k": 2}, "F2": {"recall.compare_k": 4}}


def test_a_change_no_fragment_shows_needs_the_whole_page():
    taken = {"recall.k": 5, "reveal": False}
    split = live_class.split_by_fragment({**taken, "reveal": True}, taken, WHERE, lambda key, value: False)
    assert split is None  # the classroom mode sits outside every fragment
    new_key = live_class.split_by_fragment({**taken, "ndcg.k": 3}, taken, WHERE, lambda key, value: False)
    assert new_key is None  # a value the follower never took


def test_a_value_the_follower_moved_itself_is_taken_back_in_its_fragment():
    taken = {"recall.k": 5, "ndcg.k": 3}  # ndcg.k: another page's, unchanged since taken
    split = live_class.split_by_fragment(taken, taken, WHERE, lambda key, value: key != "recall.k")
    assert split == {"F1": {"recall.k": 5}}


@given(st.dictionaries(st.sampled_from(["recall.k", "recall.editor", "recall.compare_k", "reveal", "ndcg.k"]),
                       st.integers(0, 3)),
       st.dictionaries(st.sampled_from(["recall.k", "recall.editor", "recall.compare_k", "reveal", "ndcg.k"]),
                       st.integers(0, 3)),
       st.dictionaries(st.sampled_from(["recall.k", "recall.editor", "recall.compare_k"]), st.integers(0, 3)))
def test_a_split_holds_every_shown_change_under_its_own_fragment_or_asks_for_the_page(target, taken, shown):
    split = live_class.split_by_fragment(target, taken, WHERE, lambda key, value: shown.get(key) == value)
    outside = {key for key, value in target.items() if key not in WHERE and taken.get(key) != value}
    assert (split is None) == bool(outside)
    if split is not None:
        flat = {key: (fragment, value) for fragment, values in split.items() for key, value in values.items()}
        assert flat == {key: (WHERE[key], value) for key, value in target.items()
                        if key in WHERE and shown.get(key) != value}


def test_leaving_a_class_resets_the_following_and_keeps_who_the_learner_is():
    """A session's class state (components/live_class/session.py): leaving drops what following held; the member
    id, nickname and a lead stay; joining again starts from the class's whole view."""
    from components.live_class.session import ClassState, InFragments

    held = ClassState(lead=Lead("ACDEFG", "t"), member="m-ada-0001", nickname="Ada", news="Following class ACDEFG")
    held.join("HJKMNP")
    held.applied, held.target, held.on_page, held.fragments = 3, {"recall.k": 3}, "recall", {"recall.k": "F1"}
    held.in_fragments, held.exploring = InFragments("HJKMNP", 4, {}, {"F1": {}}), True
    held.leave()
    assert held == ClassState(lead=Lead("ACDEFG", "t"), member="m-ada-0001", nickname="Ada")
    held.join("HJKMNP")
    assert (held.joined, held.exploring, held.applied, held.target, held.ended) == ("HJKMNP", False, None, None, False)
