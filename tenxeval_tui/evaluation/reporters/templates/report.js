// Rows are drawn from the embedded JSON at load, a case's detail when its row is opened.
// Only textContent is ever set from report data: no HTML is parsed from it.
(function () {
  "use strict";
  var dataNode = document.getElementById("case-data");
  var cases = JSON.parse(dataNode.textContent || "[]");
  var list = document.getElementById("case-list");
  var rows = [];
  var search = document.getElementById("search");
  var failedOnly = document.getElementById("failed-only");
  var count = document.getElementById("count");
  var haystack = null;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function add(parent) {
    for (var i = 1; i < arguments.length; i++) {
      if (arguments[i]) parent.appendChild(arguments[i]);
    }
    return parent;
  }

  function textBox(text, emptyNote) {
    if (text === undefined || text === null || text === "") {
      return el("pre", "text none", emptyNote || "(none)");
    }
    return el("pre", "text", text);
  }

  function heading(title) {
    return el("h3", null, title);
  }

  function pair(leftTitle, left, rightTitle, right) {
    var grid = el("div", "pair");
    add(grid, add(el("div"), el("h4", null, leftTitle), left));
    add(grid, add(el("div"), el("h4", null, rightTitle), right));
    return grid;
  }

  function toolLabel(tool) {
    var label = tool.name + (tool.args !== undefined ? "(" + tool.args + ")" : "");
    if (tool.result !== undefined) label += " \u2192 " + tool.result;
    // How a run that controls tools answered the call: live, replayed or faked.
    return tool.mode !== undefined ? label + " \u00b7 " + tool.mode : label;
  }

  function toolList(tools, other) {
    if (!tools || !tools.length) return el("p", "text none", "(no tool calls)");
    var ol = el("ol", "tools");
    tools.forEach(function (tool, i) {
      var mismatch = other && (!other[i] || other[i].name !== tool.name);
      ol.appendChild(el("li", mismatch ? "mismatch" : null, toolLabel(tool)));
    });
    return ol;
  }

  function turnsSection(c) {
    var turns = c.turns || [];
    if (!turns.length) return null;
    var box = el("div");
    if (turns.length === 1) {
      add(box, heading("Query"), textBox(turns[0].user));
      return box;
    }
    add(box, heading("Conversation (" + turns.length + " turns)"));
    turns.forEach(function (turn, i) {
      var t = el("div", "turn");
      var user = el("div");
      add(user, el("span", "who", "User " + (i + 1) + ":"), document.createTextNode(turn.user || ""));
      add(t, user);
      // The final turn's reply is the case's response (not stored twice).
      var reply = turn.agent !== undefined ? turn.agent : i === turns.length - 1 ? c.response : undefined;
      if (reply !== undefined) {
        var agent = el("div");
        add(agent, el("span", "who", "Agent:"), document.createTextNode(reply || ""));
        add(t, agent);
      }
      if (turn.tools && turn.tools.length) {
        add(t, el("div", "who", "Tools: " + turn.tools.join(" \u2192 ")));
      }
      box.appendChild(t);
    });
    return box;
  }

  function criteriaSection(c) {
    var crit = c.criteria || [];
    if (!crit.length) return null;
    var table = el("table", "crit");
    var head = el("tr");
    ["Criterion", "Score", "Threshold", "Result", ""].forEach(function (h) {
      head.appendChild(el("th", null, h));
    });
    table.appendChild(head);
    crit.forEach(function (cr) {
      var row = el("tr");
      var name = add(el("td"), el("strong", null, cr.name));
      if (cr.reason !== undefined) add(name, el("div", "reason", cr.reason));
      if (cr.error !== undefined) add(name, el("div", "crit-error", "Error: " + cr.error));
      if (cr.cost !== undefined) add(name, el("div", "reason", "Judge cost $" + Number(cr.cost).toFixed(4)));
      if (cr.details !== undefined) {
        var more = add(el("details"), el("summary", null, "details"), el("pre", "text", cr.details));
        add(name, more);
      }
      var meter = el("div", cr.passed ? "meter" : "meter bad");
      var fill = el("span");
      fill.style.width = Math.max(0, Math.min(1, Number(cr.score) || 0)) * 100 + "%";
      meter.appendChild(fill);
      add(
        row,
        name,
        el("td", "num", Number(cr.score).toFixed(2)),
        el("td", "num", Number(cr.threshold).toFixed(2)),
        el("td", cr.passed ? "ok" : "bad", cr.passed ? "pass" : "fail"),
        add(el("td"), meter)
      );
      table.appendChild(row);
    });
    return add(el("div"), heading("Criteria"), table);
  }

  function runsSection(r) {
    if (!r) return null;
    var box = el("div");
    var ks = r.pass_at_k.map(function (p, i) {
      return "k=" + (i + 1) + ": " + p.toFixed(2) + " / " + r.pass_hat_k[i].toFixed(2);
    });
    add(
      box,
      heading("Repeats: " + r.passed + " of " + r.total + " runs passed"),
      el("p", "foot", "pass rule " + r.rule + " \u00b7 " + r.flips + " flips \u00b7 shown above: run " + r.shown),
      el("p", "foot", "pass@k / pass^k \u2014 " + ks.join(", "))
    );
    var ol = el("ol", "tools");
    r.each.forEach(function (run) {
      var scores = Object.keys(run.scores).map(function (k) { return k + " " + Number(run.scores[k]).toFixed(2); });
      var label = "#" + run.n + " " + run.status + " \u00b7 " + run.duration + "s";
      if (scores.length) label += " \u00b7 " + scores.join(", ");
      if (run.tools && run.tools.length) label += " \u00b7 tools " + run.tools.join(" \u2192 ");
      if (run.error !== undefined) label += " \u00b7 error: " + run.error;
      if (run.response !== undefined) label += " \u00b7 " + run.response;
      ol.appendChild(el("li", run.status === "passed" ? null : "mismatch", label));
    });
    return add(box, ol);
  }

  function renderCase(c) {
    var body = el("div", "body");
    if (c.error !== undefined) add(body, heading("Error"), el("pre", "text error-text", c.error));
    add(body, turnsSection(c));
    if (c.response !== undefined || c.expected !== undefined) {
      add(
        body,
        heading("Response"),
        pair(
          "Actual",
          c.response !== undefined ? textBox(c.response, "(empty)") : textBox(null, "(not included)"),
          "Expected",
          textBox(c.expected, "(no expected response)")
        )
      );
    }
    add(body, criteriaSection(c));
    add(body, runsSection(c.runs));
    if (c.tools !== undefined) {
      add(
        body,
        heading("Tool trajectory"),
        pair(
          "Expected",
          c.expected_tools ? toolList(c.expected_tools, c.tools) : textBox(null, "(not recorded)"),
          "Actual",
          toolList(c.tools, c.expected_tools)
        )
      );
      if (c.expected_nodes) {
        add(
          body,
          heading("Node order"),
          pair(
            "Expected",
            textBox(c.expected_nodes.join(" \u2192 ")),
            "Actual",
            textBox((c.nodes || []).join(" \u2192 "))
          )
        );
      } else if (c.nodes && c.nodes.length) {
        add(body, heading("Node order"), textBox(c.nodes.join(" \u2192 ")));
      }
    }
    if (c.node_responses && c.node_responses.length) {
      var nodes = el("ol", "tools");
      c.node_responses.forEach(function (n) {
        var label = n.node + (n.calls ? " \u2192 calls " + n.calls.join(", ") : "");
        nodes.appendChild(el("li", null, n.text !== undefined ? label + ": " + n.text : label));
      });
      add(body, heading("Node responses"), nodes);
    }
    var foot = "id " + c.id + (c.set ? " \u00b7 eval set " + c.set : "");
    foot += " \u00b7 " + c.duration + "s \u00b7 " + c.tokens + " tokens";
    if (c.cost !== undefined) foot += " \u00b7 $" + Number(c.cost).toFixed(4);
    add(body, el("p", "foot", foot));
    return body;
  }

  function onToggle(event) {
    var row = event.target;
    // toggles of the small "details" boxes inside a case arrive here too
    if (!row.classList.contains("case") || !row.open || row.dataset.rendered) return;
    var c = cases[Number(row.dataset.i)];
    if (!c) return;
    row.appendChild(renderCase(c));
    row.dataset.rendered = "1";
  }

  function buildHaystack() {
    return cases.map(function (c) {
      var parts = [c.name, c.id, c.set, c.status, c.response, c.expected, c.error];
      (c.turns || []).forEach(function (t) {
        parts.push(t.user, t.agent);
      });
      (c.criteria || []).forEach(function (cr) {
        parts.push(cr.name, cr.reason);
      });
      (c.tools || []).forEach(function (t) {
        parts.push(t.name);
      });
      return parts.filter(function (p) { return p; }).join("\n").toLowerCase();
    });
  }

  function applyFilter() {
    var query = search ? search.value.trim().toLowerCase() : "";
    var onlyFailed = failedOnly ? failedOnly.checked : false;
    if (query && !haystack) haystack = buildHaystack();
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var c = cases[i] || {};
      var visible = (!onlyFailed || c.status !== "passed") && (!query || haystack[i].indexOf(query) !== -1);
      if (rows[i].hidden === visible) rows[i].hidden = !visible;
      if (visible) shown++;
    }
    if (count) count.textContent = shown + " of " + rows.length + " cases";
    // What the list now shows, for scripts driving the page (our browser tests wait on it).
    document.documentElement.dataset.filter = (onlyFailed ? "failed:" : "all:") + query;
  }

  function buildRows() {
    var sets = {};
    var setCount = 0;
    cases.forEach(function (c) {
      if (c.set && !sets[c.set]) {
        sets[c.set] = true;
        setCount++;
      }
    });
    var fragment = document.createDocumentFragment();
    cases.forEach(function (c, i) {
      var row = el("details", "case " + c.status);
      row.dataset.i = String(i);
      var summary = el("summary");
      var failed = (c.criteria || []).filter(function (cr) { return !cr.passed; });
      add(
        summary,
        el("span", "st", c.status),
        el("span", "nm", c.name || c.id),
        c.name && c.name !== c.id ? el("code", null, c.id) : null,
        setCount > 1 && c.set ? el("span", "set", c.set) : null,
        c.runs ? el("span", "runs", c.runs.passed + "/" + c.runs.total) : null,
        failed.length ? el("span", "fc", failed.map(function (cr) { return cr.name; }).join(", ")) : null,
        el("span", "du", Number(c.duration).toFixed(2) + "s")
      );
      row.appendChild(summary);
      fragment.appendChild(row);
      rows.push(row);
    });
    list.appendChild(fragment);
  }

  var timer = null;
  if (list) buildRows();
  if (list) list.addEventListener("toggle", onToggle, true);
  if (search) {
    search.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(applyFilter, rows.length > 2000 ? 150 : 30);
    });
  }
  if (failedOnly) failedOnly.addEventListener("change", applyFilter);
  document.documentElement.dataset.ready = "1";
})();
