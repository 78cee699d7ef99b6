"""Notation, integer codes, positions, records and copies, for every registered game:
whatever a face stores or sends (a text, a code, a position, a record) comes back as it
was, and a copy is a state of its own."""

from __future__ import annotations

import json
import random
import string

import pytest

from tests.conformance.sampled import Case, games, play_random, positions
from thermopylae.engine import registry
from thermopylae.engine.errors import NotationError
from thermopylae.engine.protocol import CHANCE
from thermopylae.engine.record import Record, replay, seat_name, state_digest

pytestmark = pytest.mark.usefixtures("toy_registered")


# -- the action table ---------------------------------------------------------------------


def test_encode_and_decode_are_a_bijection_of_the_table(each_game: str) -> None:
    game = registry.get(each_game)
    n = game.num_actions
    assert isinstance(n, int) and n > 0
    table = [game.decode(i) for i in range(n)]
    assert len(set(table)) == n, "two codes decode to the same action"
    assert [game.encode(a) for a in table] == list(range(n))
    for bad in (-1, n):
        with pytest.raises(NotationError):
            game.decode(bad)


def test_every_action_of_the_table_round_trips_through_its_text(each_game: str) -> None:
    game = registry.get(each_game)
    for i in range(game.num_actions):
        a = game.decode(i)
        text = game.format(a)
        assert isinstance(text, str) and text == text.strip() and text
        assert game.parse(text) == a, text
        label = game.label(a)
        assert isinstance(label, str) and label


def test_the_notation_ignores_case_and_spacing(each_game: str) -> None:
    """What a player types at the terminal or a script sends: `PLAY  5` is `play 5`."""
    game = registry.get(each_game)
    rng = random.Random(each_game)
    for i in range(game.num_actions):
        a = game.decode(i)
        pad = rng.choice(["", " ", "  ", "\t"])
        text = game.format(a).replace(" ", " " + pad)
        text = pad + (text.upper() if rng.random() < 0.5 else text) + pad
        assert game.parse(text) == a, text


def test_parse_refuses_other_text_with_notation_error_only(each_game: str) -> None:
    """Any text is an action (which then round-trips) or a `NotationError`, never another
    exception: seeded junk, and texts of the table with a word changed."""
    game = registry.get(each_game)
    rng = random.Random(each_game)
    alphabet = string.ascii_letters + string.digits + " -/*.:_é\t"
    texts = ["", " ", "?", "1e9", "-1", "play", "\x00", "9" * 40]
    texts += ["".join(rng.choices(alphabet, k=rng.randrange(1, 20))) for _ in range(300)]
    for _ in range(300):
        words = game.format(game.decode(rng.randrange(game.num_actions))).split()
        k = rng.randrange(len(words))
        words[k] = rng.choice([words[k] + "x", "-" + words[k], "99", "", "zz"])
        texts.append(" ".join(words))
    for text in texts:
        try:
            a = game.parse(text)
        except NotationError:
            continue
        assert game.parse(game.format(a)) == a, text


# -- positions ---------------------------------------------------------------------------


def test_positions_round_trip_through_json_and_play_on_the_same(case: Case) -> None:
    """`state_from_json(state_to_json(s))` (through JSON text) gives the same JSON, the
    same seat to act, the same legal actions in the same order, the same chance
    outcomes, views and outcome; played on with the game's own remaining steps, it ends
    in the same state."""
    for played, step, s in positions(case):
        game = played.game
        j = game.state_to_json(s)
        text = json.dumps(j)
        assert json.loads(text) == j
        t = game.state_from_json(json.loads(text))
        assert game.state_to_json(t) == j
        assert game.to_act(t) == game.to_act(s)
        assert list(game.legal(t)) == list(game.legal(s))
        assert list(game.chance(t)) == list(game.chance(s))
        assert game.outcome(t) == game.outcome(s)
        for seat in (None, *range(case.players)):
            assert game.view(t, seat) == game.view(s, seat)
        for a in played.actions_from(step):
            game.apply(t, a, quiet=True)
        assert game.state_to_json(t) == game.state_to_json(played.final)


def test_the_order_of_legal_actions_survives_the_json_round_trip_at_every_step(
    case: Case,
) -> None:
    """The protocol promises legal actions "in a stable order": a position saved and
    loaded numbers its choices as the live game did (the terminal's `1`, a seeded agent
    choosing by index). At every step of the case's games, not only at sampled ones:
    300: The Board Game once lost the order of a casualty menu at one step of one game."""
    for played in games(case):
        game = played.game
        s = game.new(played.options)
        for _, action, _ in played.steps:
            if game.to_act(s) != CHANCE:
                t = game.state_from_json(game.state_to_json(s))
                assert list(game.legal(t)) == list(game.legal(s))
            game.apply(s, action, quiet=True)


def test_replay_reproduces_the_record(case: Case) -> None:
    """A record written while a game is played (`engine.record.Record`), saved as JSON and
    read back, replays step by step to the same final state and outcome; so does a record
    stopped part way."""
    for played in games(case):
        game = played.game
        for stop in (len(played.steps), len(played.steps) // 2):
            rec = Record.begin(game, played.options, seed=played.seed)
            s = game.new(played.options)
            for seat, action, _ in played.steps[:stop]:
                rec.add(seat_name(game, played.options, seat), game.format(action))
                game.apply(s, action, quiet=True)
            rec.close(game, s)
            loaded = Record.from_json(json.loads(json.dumps(rec.to_json())))
            assert loaded == rec
            report = replay(game, loaded)
            assert report.ok, report.problems
            assert report.steps_checked == stop
            assert state_digest(game, report.state) == state_digest(game, s)
            assert report.outcome == game.outcome(s)
            assert (report.outcome is None) == (stop < len(played.steps))


# -- copies ------------------------------------------------------------------------------


def test_a_copy_is_independent_of_its_original(case: Case) -> None:
    """Playing a copy to the end leaves the original's JSON as it was, and playing the
    original leaves the copy's."""
    rng = random.Random(case.players)
    for played, _, s in positions(case):
        game = played.game
        if game.to_act(s) is None:
            continue
        before = game.state_to_json(s)
        c = game.copy(s)
        assert game.state_to_json(c) == before
        play_random(game, c, rng)
        assert game.state_to_json(s) == before, "playing a copy changed its original"
        c = game.copy(s)
        play_random(game, s, rng)
        assert game.state_to_json(c) == before, "playing the original changed its copy"
