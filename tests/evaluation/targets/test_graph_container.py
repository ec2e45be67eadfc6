"""The per-app container: singleton lookups are memoised, yet every change to the bindings is seen."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from injectq import InjectQ
from injectq.core.scopes import ScopeType
from injectq.utils import CircularDependencyError, InjectionError
from tenxgraph.core.state.message import Message

from sample_evals.weather_graph import build_graph
from tenxeval_tui.evaluation import create_eval_app
from tenxeval_tui.evaluation.targets.graph_container import GraphContainer, private_container


class Service:
    """A class injectq builds itself (a lazily created singleton)."""


def test_a_singleton_is_resolved_once_and_stays_the_same() -> None:
    container = GraphContainer()
    container.bind(Service, Service)

    first = container.get(Service)

    assert container.get(Service) is first
    assert container.has(Service)
    assert not container.has(str)


@pytest.mark.parametrize(
    "make_container", [lambda: InjectQ(thread_safe=False), GraphContainer], ids=["injectq", "ours"]
)
def test_rebinding_after_a_lookup_behaves_as_injectq_does(
    make_container: Callable[[], InjectQ],
) -> None:
    # injectq keeps serving the singleton it already built; the memo must not change that,
    # and clearing the scope afterwards must reach the new binding in both.
    container = make_container()
    old, new = Service(), Service()
    container.bind_instance(Service, old)
    assert container.get(Service) is old

    container.bind_instance(Service, new)
    served_after_rebind = container.get(Service)
    container.clear_scope(ScopeType.SINGLETON)

    assert served_after_rebind is old
    assert container.get(Service) is new


def test_an_override_is_seen_and_undone() -> None:
    container = GraphContainer()
    original, replacement = Service(), Service()
    container.bind_instance(Service, original)
    assert container.get(Service) is original

    with container.override(Service, replacement):
        assert container.get(Service) is replacement
    assert container.get(Service) is original


def test_clearing_the_singleton_scope_builds_a_new_instance() -> None:
    container = GraphContainer()
    container.bind(Service, Service)
    first = container.get(Service)

    container.clear_scope(ScopeType.SINGLETON)

    assert container.get(Service) is not first


def test_factories_run_on_every_lookup() -> None:
    container = GraphContainer()
    counter = itertools.count()
    container.bind_factory("next_id", lambda: next(counter))

    assert [container.get("next_id") for _ in range(3)] == [0, 1, 2]


def test_a_factory_bound_over_a_memoised_singleton_takes_over() -> None:
    container = GraphContainer()
    container.bind_instance("value", 1)
    assert container.get("value") == 1

    container.bind_factory("value", lambda: 2)

    assert container.get("value") == 2


def test_services_the_user_bound_are_carried_into_the_private_container() -> None:
    shared = InjectQ()
    mine = Service()
    shared.bind_instance(Service, mine)

    assert private_container(shared).get(Service) is mine


@pytest.mark.parametrize(
    "make_container", [lambda: InjectQ(thread_safe=False), GraphContainer], ids=["injectq", "ours"]
)
def test_factories_give_what_injectq_gives_them_and_fail_as_there(
    make_container: Callable[[], InjectQ],
) -> None:
    container = make_container()
    counter = itertools.count(1)
    container.bind(Service, Service)
    container.bind_factory("plain", lambda: next(counter))

    def needs(service: Service) -> tuple[Service, int]:
        return service, next(counter)

    container.bind_factory("needs", needs)
    container.bind_factory("fails", lambda: 1 / 0)
    container.bind_factory("loops", lambda: container.get("loops"))

    assert [container.get("plain"), container.try_get("plain")] == [1, 2]
    service, number = container.get("needs")  # a factory's dependency is injected
    assert (service, number) == (container.get(Service), 3)
    with pytest.raises(InjectionError, match=r"Failed to invoke factory .*: division by zero"):
        container.get("fails")
    with pytest.raises(CircularDependencyError):
        container.get("loops")


def test_a_factory_is_read_for_its_dependencies_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import injectq.core.resolver as resolver

    import tenxeval_tui.evaluation.targets.graph_container as ours

    reads: list[object] = []

    def counted(read: Callable[..., Any]) -> Callable[..., Any]:
        def read_counted(factory: Any) -> Any:
            reads.append(factory)
            return read(factory)

        return read_counted

    read = resolver.get_function_dependencies
    monkeypatch.setattr(resolver, "get_function_dependencies", counted(read))
    monkeypatch.setattr(ours, "get_function_dependencies", counted(read), raising=False)
    container = GraphContainer()
    container.bind_factory("generated_id", lambda: "")

    assert [container.get("generated_id") for _ in range(5)] == [""] * 5
    assert len(reads) == 1


async def test_a_second_turn_sees_the_first_through_the_memoised_checkpointer() -> None:
    app, _ = create_eval_app(build_graph())

    def ask(text: str) -> dict[str, Any]:
        return {"messages": [Message.text_message(text, role="user")]}

    await app.ainvoke(ask("What is the weather in Paris?"), {"thread_id": "two-turns"})
    second = await app.ainvoke(ask("And in Rome?"), {"thread_id": "two-turns"})
    alone = await app.ainvoke(ask("And in Rome?"), {"thread_id": "fresh"})

    # The scripted model counts every word of the context it is given as input tokens.
    assert second["token_usage"]["total_input_tokens"] > alone["token_usage"]["total_input_tokens"]
