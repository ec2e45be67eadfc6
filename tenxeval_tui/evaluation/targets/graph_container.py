"""A private dependency container for each 10xGraph app we compile.

10xGraph resolves its checkpointer, callback manager, publisher and task
manager through an injectq container, and looks them up again at every step of
every run: about 150 lookups per run of a small graph, each walking injectq's
resolver, scope manager and debug logging. :class:`GraphContainer` answers a
repeated lookup of a singleton binding from a memo instead. The memo is checked
against the registry on every hit (the binding object must still be the one
resolved), so rebinding a service, overriding it or clearing the singleton
scope is seen at the next lookup.

A factory binding is called at every lookup, as injectq calls it; what injectq also did
at every call, reading the factory's signature and type hints for what to inject
(``generated_id``, looked up for each message id, was most of a run's lookup time), is
done once per factory here, and a factory that takes nothing is called directly.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

from injectq import InjectQ
from injectq.core.context import ContainerContext
from injectq.core.registry import ServiceBinding
from injectq.core.scopes import ScopeType, TransientScope
from injectq.utils import (
    CircularDependencyError,
    DependencyNotFoundError,
    InjectionError,
    get_function_dependencies,
)
from tenxgraph.runtime.publisher.base_publisher import BasePublisher
from tenxgraph.storage.media.storage.base import BaseMediaStore

_SINGLETON = ScopeType.SINGLETON.value

# Services 10xGraph binds only when a graph has one: a copy of another graph's
# publisher or media store would send this graph's events elsewhere.
_NOT_INHERITED: frozenset[Any] = frozenset({BasePublisher, BaseMediaStore})

CONTAINER_VAR: contextvars.ContextVar[InjectQ | None] = ContainerContext._context_var


class GraphContainer(InjectQ):
    """An injectq container (not thread-safe) that resolves each singleton binding once."""

    def __init__(self) -> None:
        # Written only while compiling; at run time 10xGraph only reads it, from
        # the event loop, so injectq's locking would be pure cost.
        super().__init__(thread_safe=False)
        self._resolved: dict[Any, tuple[ServiceBinding, Any]] = {}
        self._takes_nothing: dict[Any, bool] = {}

    def get(self, service_type: Any) -> Any:
        """The service bound to ``service_type`` (a singleton's memo when still current;
        a factory that takes nothing, called as injectq would call it)."""
        registry = self._registry
        try:
            binding, value = self._resolved[service_type]
        except (KeyError, TypeError):  # TypeError: an unhashable key, never memoised
            pass
        else:
            if registry._bindings.get(service_type) is binding and (
                service_type not in registry._factories
            ):
                return value
        try:
            factory = registry._factories.get(service_type)
        except TypeError:
            factory = None
        if factory is not None and self._takes_nothing_to_inject(factory):
            return self._call_factory(service_type, factory)
        value = super().get(service_type)
        current = registry._bindings.get(service_type)
        if (
            current is not None
            and current.scope == _SINGLETON
            and not current.is_factory
            and service_type not in registry._factories
        ):
            self._resolved[service_type] = (current, value)
        return value

    def _takes_nothing_to_inject(self, factory: Any) -> bool:
        """Whether injectq would call ``factory`` with no arguments (read once per factory),
        from its own transient scope."""
        try:
            plain = self._takes_nothing[factory]
        except KeyError:
            try:
                plain = not get_function_dependencies(factory)
            except Exception:  # injectq's own lookup then says what is wrong
                plain = False
            self._takes_nothing[factory] = plain
        except TypeError:  # an unhashable factory
            return False
        scopes = self._resolver.scope_manager
        return plain and type(scopes.get_scope("transient")) is TransientScope

    def _call_factory(self, service_type: Any, factory: Any) -> Any:
        """``factory()`` as injectq's resolver calls it: a cycle (the factory looking
        itself up) and a failure raise what they raise there."""
        stack = self._resolver._resolution_stack
        if service_type in stack:
            return super().get(service_type)  # raises CircularDependencyError
        stack.append(service_type)
        try:
            return factory()
        except (DependencyNotFoundError, CircularDependencyError):
            raise
        except Exception as exc:
            raise InjectionError(f"Failed to invoke factory {factory}: {exc}") from exc
        finally:
            stack.pop()

    def has(self, service_type: Any) -> bool:
        """Whether ``service_type`` is bound here (as a binding or a factory)."""
        registry = self._registry
        return service_type in registry._bindings or service_type in registry._factories

    def clear_scope(self, scope_name: Any) -> None:
        """Drop a scope's instances, and the memo with them."""
        self._resolved.clear()
        super().clear_scope(scope_name)

    def clear_all_scopes(self) -> None:
        """Drop every scope's instances, and the memo with them."""
        self._resolved.clear()
        super().clear_all_scopes()

    def clear(self) -> None:
        """Remove every binding, and the memo with them."""
        self._resolved.clear()
        super().clear()


def private_container(shared: InjectQ) -> GraphContainer:
    """A new container holding what the user bound in ``shared`` (for their own nodes)."""
    container = GraphContainer()
    registry, own = shared._registry, container._registry
    own._bindings.update(
        (key, binding)
        for key, binding in registry.get_all_bindings().items()
        if key not in _NOT_INHERITED
    )
    own._factories.update(
        (key, factory)
        for key, factory in registry.get_all_factories().items()
        if key not in _NOT_INHERITED
    )
    return container


@contextlib.contextmanager
def active(container: InjectQ) -> Iterator[None]:
    """Make ``container`` the one injectq resolves from, in this context only."""
    # Only the context variable (never injectq's thread-wide fallback), so
    # concurrent runs of different apps in one thread each see their own container.
    token = CONTAINER_VAR.set(container)
    try:
        yield
    finally:
        CONTAINER_VAR.reset(token)
