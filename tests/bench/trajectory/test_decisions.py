import json
import subprocess
import sys

import pytest
from lab_fakes import FakeEnv

from relaykit.bench.htmlpage import stylesheet
from relaykit.bench.reports import report_for
from relaykit.bench.store import RunStore
from relaykit.bench.trajectory import register_env
from relaykit.bench.trajectory.decisions import DecisionConfig, case, entities, run_decisions
from relaykit.bench.trajectory.decisions_report import html_report, summarize
from relaykit.bench.trajectory.envs import Episode, GoldStep, episode_messages, history_before
from relaykit.cli.app import main
from relaykit.errors import UsageError
from relaykit.trajectory import validate


@pytest.fixture(autouse=True)
def fake_env() -> None:
    register_env("fake", FakeEnv)


def test_entities_are_argument_values_or_the_object_of_a_command() -> None:
    assert entities(GoldStep("take purple potato", "ok")) == {"purple", "potato"}
    call = GoldStep("f(x)", "ok", call={"name": "get_order", "arguments": {"order_id": "#W42", "ids": ["a1", "b2"]}})
    assert entities(call) == {"w42", "a1", "b2"}
    assert entities(GoldStep("look", "ok")) == frozenset()


def test_the_history_before_a_turns_first_call_ends_with_that_turns_request() -> None:
    """At a multi-turn user's new turn, the agent has read the request before it calls: the decision point's history
    ends with it (the lab left it out, so a turn's first call was scored against a history without what it answers)."""
    steps = (GoldStep("get_a()", "A1", call={"name": "get_a", "arguments": {}}, user_before="Fetch A."),
             GoldStep("get_b()", "B1", call={"name": "get_b", "arguments": {}}),
             GoldStep("get_c(x='A1')", "C1", call={"name": "get_c", "arguments": {"x": "A1"}},
                      user_before="Now C of A1."))
    episode = Episode("fake", "e1", "Fetch A.", steps)
    assert history_before(episode, 1) == episode_messages(episode, 1)  # inside a turn: nothing more
    opened = history_before(episode, 2)
    assert opened[:-1] == episode_messages(episode, 2) and opened[-1] == {"role": "user", "content": "Now C of A1."}
    assert validate(opened) == []


def test_a_case_is_within_budget_or_raises_with_the_stated_minimum() -> None:
    msgs = [{"role": "system", "content": "Agent."}, {"role": "user", "content": "Find the coin in the hall-box."}]
    for i in range(6):
        msgs += [{"role": "assistant", "content": f"go to room{i}"},
                 {"role": "user", "content": f"You are in room{i}. There is a box{i} here. " * 5}]
    ok = case(msgs, frozenset({"box1"}), "agora", "50%")
    assert ok["feasible"] and ok["valid"] and ok["within"] and ok["floor_kept"]
    assert ok["tokens_out"] <= ok["budget_tokens"] and ok["hits"] <= 1
    tight = case(msgs, frozenset({"box1"}), "recency", "1%")
    assert not tight["feasible"] and tight["error"] == "BudgetTooSmall" and tight["stated_minimum"] == tight["minimum"]


def test_run_summary_and_report(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = RunStore(tmp_path / "runs.sqlite")
    cfg = DecisionConfig(envs=("fake",), methods=("agora", "recency", "head-tail"), budgets=("30%", "50%"),
                         episodes=2)
    run_id = run_decisions(cfg, store)
    rows = summarize(store.results(run_id))
    assert {(r["budget"], r["method"]) for r in rows} == {(b, m) for b in cfg.budgets for m in cfg.methods}
    for row in rows:
        assert row["split"] == "held-out" and row["feasible"] + row["infeasible"] == 2 * 4
        if row["feasible"]:
            assert row["valid"] == 1.0 and row["within"] == 1.0
        if row["infeasible"]:
            assert row["clear_error"] == 1.0
    assert report_for(store.get_run(run_id)).kind == "trajectory-decisions"
    page = html_report(store, store.get_run(run_id))
    assert "entity recall" in page and stylesheet() in page and "<table" in page and "How to read" in page
    assert "{'" not in page  # settings as a readable list, not a Python dict
    data = report_for(store.get_run(run_id)).to_json(store, store.get_run(run_id))
    got = data["summary"]["rows"]  # what `relaykit report RUN --json` prints
    assert [(r["budget"], r["method"], r["feasible"], r["infeasible"]) for r in got] == \
        [(r["budget"], r["method"], r["feasible"], r["infeasible"]) for r in rows]
    before = store.results(run_id)
    assert run_decisions(cfg, store, run_id=run_id) == run_id and store.results(run_id) == before  # resume: no-op
    runs = len(store.list_runs())
    with pytest.raises(UsageError, match="unknown method"):
        run_decisions(DecisionConfig(envs=("fake",), methods=("magic",)), store)
    assert len(store.list_runs()) == runs  # a usage error registers no run


def test_cli_decision_points_json(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "runs.sqlite")
    with pytest.raises(SystemExit) as info:
        main(["bench", "trajectory", "--decision-points", "--env", "fake", "--episodes", "1", "--methods",
              "agora,recency", "--budget", "30%,50%", "--store", db, "--json"])
    out, _ = capsys.readouterr()
    data = json.loads(out)
    assert info.value.code in (0, None) and len(data["rows"]) == 4 and data["config"]["seed"] == 105
    assert [(r["budget"], r["method"]) for r in data["by_spare_tokens"]] == [(r["budget"], r["method"])
                                                                             for r in data["rows"]]
    proc = subprocess.run([sys.executable, "-m", "relaykit.cli.app", "report", data["run_id"], "--store", db],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0 and "decision points" in proc.stdout


def test_result_tables_keep_their_width_in_a_log(capsys: pytest.CaptureFixture[str]) -> None:
    from rich.table import Table

    from relaykit.bench.reports import results_console

    table = Table()
    for name in ("split", "budget", "method", "feasible", "entity recall", "all-words recall", "size / input",
                 "infeasible", "clear BudgetTooSmall"):
        table.add_column(name)
    table.add_row("held-out", "30%", "agora-block-only", "64", "0.794", "0.853", "0.29", "45", "1.000")
    results_console().print(table)  # stdout is captured: not a terminal
    out = capsys.readouterr().out
    assert "agora-block-only" in out and "clear BudgetTooSmall" in out and "…" not in out


def test_the_miss_diagnostic_says_where_a_lost_word_was() -> None:
    from relaykit.bench.trajectory.decisions_misses import misses

    msgs = [{"role": "system", "content": "Agent."}, {"role": "user", "content": "Find the coin in the hall-box."}]
    for i in range(6):
        msgs += [{"role": "assistant", "content": f"go to room{i}"},
                 {"role": "user", "content": f"You are in room{i}. There is a box{i} here. " * 5}]
    lost = misses(msgs, frozenset({"box1", "box5"}), "recency", "30%")  # the plain window drops step 1 whole
    assert lost == [("stage 1", "other step", "dropped")]
    assert misses(msgs, frozenset({"box1"}), "recency", "1%") == []  # infeasible: nothing to say
    assert misses(msgs, frozenset({"box5"}), "agora", "50%") == []  # the current observation is kept


def _rooms() -> list[dict[str, str]]:
    msgs = [{"role": "system", "content": "Agent."}, {"role": "user", "content": "Find the coin in the hall-box."}]
    for i in range(6):
        msgs += [{"role": "assistant", "content": f"go to room{i}"},
                 {"role": "user", "content": f"You are in room{i}. There is a box{i} here. " * 5}]
    return msgs


def test_the_ceiling_keeps_the_minimal_history_free_and_fits_the_rest_cheapest_first() -> None:
    from relaykit.bench.trajectory.decisions import ceiling
    from relaykit.tokens import count
    from relaykit.trajectory import parse
    from relaykit.trajectory.budget import minimum_budget

    t = parse(_rooms())
    low = minimum_budget(t)
    target = frozenset({"room5", "hall", "box1", "box2", "box3"})  # the current action and the task hold two
    cost = count(" box1")
    exact = ceiling(t, target, low, low)
    assert exact["hits"] == 2 and exact["tokens_out"] == low and exact["within"]
    assert ceiling(t, target, low + cost, low)["hits"] == 3
    assert ceiling(t, target, low + 3 * cost - 1, low)["hits"] == 4  # a word that does not fit is not counted
    assert ceiling(t, target, low + 3 * cost, low)["hits"] == 5
    short = ceiling(t, target, low - 1, low)
    assert short["error"] == "BudgetTooSmall" and short["stated_minimum"] == low and short["hits"] == 0


def test_no_method_beats_the_ceiling_on_any_case() -> None:
    msgs, words = _rooms(), frozenset({"box0", "box1", "box2", "box3", "box4", "room1", "room3", "coin", "hall"})
    for budget in ("35%", "50%", "70%", "100%"):
        bound = case(msgs, words, "ceiling", budget)
        assert bound["feasible"] and bound["valid"] and bound["within"]
        for label in ("agora", "recency-digest", "floor-digest", "obs-mask", "recency", "head-tail", "truncate"):
            row = case(msgs, words, label, budget)
            assert row["hits"] <= bound["hits"], (label, budget)


def test_the_ceiling_is_a_row_of_the_lab_but_not_a_method_to_diagnose() -> None:
    from relaykit.bench.trajectory.decisions import CEILING, DEFAULT_METHODS
    from relaykit.bench.trajectory.decisions_misses import miss_table

    assert CEILING in DEFAULT_METHODS
    with pytest.raises(UsageError, match="ceiling"):
        miss_table(["fake"], CEILING, ["30%"], 1, 105)


def test_the_ceiling_row_of_a_run_bounds_the_methods_and_leaves_all_words_recall_empty(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from relaykit.bench.trajectory.decisions_report import cells

    store = RunStore(tmp_path / "runs.sqlite")
    cfg = DecisionConfig(envs=("fake",), methods=("agora", "recency", "ceiling"), budgets=("30%", "50%"), episodes=2)
    rows = {(r["budget"], r["method"]): r for r in summarize(store.results(run_decisions(cfg, store)))}
    for budget in cfg.budgets:
        bound = rows[(budget, "ceiling")]
        assert bound["word_recall"] != bound["word_recall"] and cells(bound)[8] == "—"  # NaN: not a bound there
        assert bound["feasible"] == rows[(budget, "agora")]["feasible"]
        if bound["feasible"]:
            assert bound["recall"] >= max(rows[(budget, m)]["recall"] for m in ("agora", "recency"))


def test_recall_by_spare_tokens_bins_every_scored_case_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from relaykit.bench.trajectory.decisions_report import SPARE_BINS, by_spare, spare_cells

    store = RunStore(tmp_path / "runs.sqlite")
    cfg = DecisionConfig(envs=("fake",), methods=("agora", "ceiling"), budgets=("30%", "50%", "90%"), episodes=2)
    run_id = run_decisions(cfg, store)
    results = store.results(run_id)
    binned = by_spare(results)
    assert len(binned) == len(cfg.budgets) * len(cfg.methods)
    for row in binned:
        cases = [c for u in results.values() if (u["budget"], u["method"]) == (row["budget"], row["method"])
                 for c in u["cases"] if c["feasible"] and c["needed"]]
        assert sum(b["cases"] for b in row["bins"].values()) == len(cases) and len(row["bins"]) == len(SPARE_BINS)
        for label, b in row["bins"].items():
            lo = int(label.rstrip("+").split("-")[0])
            inside = [c for c in cases if c["budget_tokens"] - c["minimum"] >= lo]
            assert b["cases"] <= len(inside)
            if b["cases"] == 0:
                assert b["recall"] != b["recall"]  # NaN, shown as a dash
        assert len(spare_cells(row)) == 3 + len(SPARE_BINS)
    assert any(b["cases"] for row in binned for b in row["bins"].values())
    page = html_report(store, store.get_run(run_id))
    assert "tokens the budget leaves above the minimum" in page
    data = report_for(store.get_run(run_id)).to_json(store, store.get_run(run_id))
    assert data["summary"]["by_spare_tokens"][0]["bins"].keys() == binned[0]["bins"].keys()


class DriftEnv:
    """An environment whose gold paths change from one generation to the next (as TextWorld-Express's and
    ScienceWorld's do between processes): each call to ``episodes`` adds a room to every episode."""

    name = "drift"
    playable = False
    calls = 0

    def episodes(self, n: int, seed: int):  # type: ignore[no-untyped-def]
        from lab_fakes import ROOMS

        from relaykit.bench.trajectory.envs import Episode

        DriftEnv.calls += 1
        rooms = [*ROOMS, *(f"wing{j}" for j in range(DriftEnv.calls))]
        for k in range(n):
            steps = [GoldStep(f"go to {room}", f"You are in the {room}. There is a {room}-box here.") for room in rooms]
            yield Episode("drift", f"ep{seed + k}", "Find the coin. It is in the hall-box.", (*steps,))


class StopAfter:
    """A progress sink that interrupts the run after ``n`` units, as a killed process would."""

    def __init__(self, n: int) -> None:
        self.left = n

    def start(self, total: int, done: int) -> None: ...

    def advance(self, n: int = 1) -> None:
        self.left -= n
        if self.left <= 0:
            raise KeyboardInterrupt

    def close(self) -> None: ...


def test_a_resumed_run_scores_the_episodes_it_started_with(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from relaykit.bench.trajectory.envs import EPISODES_EVENT

    register_env("drift", DriftEnv)
    store = RunStore(tmp_path / "runs.sqlite")
    cfg = DecisionConfig(envs=("drift",), methods=("agora", "recency", "head-tail"), budgets=("50%",), episodes=2)
    with pytest.raises(KeyboardInterrupt):
        run_decisions(cfg, store, progress=StopAfter(2))
    run_id = store.list_runs()[0].run_id
    assert 0 < len(store.results(run_id)) < 6 and len(store.events(run_id, EPISODES_EVENT)) == 2
    generations = DriftEnv.calls
    assert run_decisions(cfg, store, run_id=run_id) == run_id
    assert DriftEnv.calls == generations  # the resume read the stored episodes instead of generating new ones
    results = store.results(run_id)
    assert len(results) == 6
    for episode in ("ep105", "ep106"):  # every method scored the same gold path: the same decision points
        steps = {tuple(c["t"] for c in value["cases"]) for key, value in results.items() if f"/{episode}/" in key}
        assert len(steps) == 1


def test_a_resumed_trajectory_lab_run_scores_the_episodes_it_started_with(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from relaykit.bench.trajectory.lab import LabConfig, run_lab

    register_env("drift", DriftEnv)
    store = RunStore(tmp_path / "runs.sqlite")
    cfg = LabConfig(env="drift", methods=("agora", "recency", "truncate"), episodes=2, prefixes=12)
    with pytest.raises(KeyboardInterrupt):
        run_lab(cfg, store, progress=StopAfter(2))
    run_id = store.list_runs()[0].run_id
    generations = DriftEnv.calls
    run_lab(cfg, store, run_id=run_id)
    assert DriftEnv.calls == generations
    results = store.results(run_id)
    assert len(results) == 6
    for episode in ("ep100", "ep101"):  # the same gold path for every method: as many prefixes each
        assert len({value["prefixes"] for key, value in results.items() if key.startswith(f"{episode}/")}) == 1
