"""A live class while its store cannot be reached: one session flag, and the two ways a store call survives it.

The store raises :class:`~components.live_class.store.ClassStoreDown` (Redis down, stalled or restarting;
it waits at most a second and logs the outage once). A session's store calls go through :func:`survives` (a
call that does without: a roll-call "here", an answer's count) or, for a class's timers, :func:`polled`. Either
sets :attr:`ClassState.down`, which the learner's banner and the instructor's panel read ("the class's connection is lost,
retrying"); the next poll that reaches the store clears it and redraws the page.
"""
from __future__ import annotations

import functools
from typing import Any, Callable, TypeVar, cast

import streamlit as st

from components.live_class.session import held
from components.live_class.store import ClassStoreDown

F = TypeVar("F", bound=Callable[..., Any])


def note_down() -> None:
    held().down = True


def is_down() -> bool:
    return held().down


def back_up() -> bool:
    """The store answered: the flag is cleared; whether it was set."""
    state = held()
    was, state.down = state.down, False
    return was


def survives(default: Any = None) -> Callable[[F], F]:
    """A store call that, while the store is down, returns ``default`` (of the call's type) and notes the
    outage."""
    def decorate(call: F) -> F:
        @functools.wraps(call)
        def run(*args, **kwargs):
            try:
                return call(*args, **kwargs)
            except ClassStoreDown:
                note_down()
                return default
        return cast(F, run)
    return decorate


def polled(body: Callable[[], None]) -> Callable[[], None]:
    """A class's timer body: when the store goes down, or comes back, the whole app reruns once (the banner
    says so, or stops saying it); in between the timer keeps trying, quietly."""
    @functools.wraps(body)
    def run() -> None:
        try:
            body()
        except ClassStoreDown:
            if not is_down():
                note_down()
                st.rerun(scope="app")
            return
        if back_up():
            st.rerun(scope="app")
    return run
