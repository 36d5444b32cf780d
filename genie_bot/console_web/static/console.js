// The genie-bot console: a chat with an agent beside the inspector of every turn.
// Everything shown comes from the console's JSON API and is put in the page as text nodes
// (textContent), never as markup: messages, replies and anything an LLM wrote stay inert.
// body[data-busy] is "true" while a request runs; body[data-turns] counts the turns shown.
"use strict";

(function () {
  const body = document.body;

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "className") node.className = value;
      else if (name === "dataset") Object.assign(node.dataset, value);
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function byId(id) {
    return document.getElementById(id);
  }

  function notice(text) {
    const box = byId("notice");
    box.textContent = text || "";
    box.hidden = !text;
  }

  async function api(method, path, payload) {
    const options = {method, headers: {Accept: "application/json"}, credentials: "same-origin"};
    if (payload !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(payload);
    }
    const response = await fetch(path, options);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.error || `${response.status} ${response.statusText}`);
    return data;
  }

  async function busy(work) {
    body.dataset.busy = "true";
    try {
      notice("");
      return await work();
    } catch (error) {
      notice(error.message);
      return undefined;
    } finally {
      body.dataset.busy = "false";
    }
  }

  function sessionUrl(key) {
    return "/session?key=" + encodeURIComponent(key);
  }

  // -- the session page ---------------------------------------------------------------------------
  const session = {key: body.dataset.key, view: null};

  function renderSession(view) {
    session.view = view;
    byId("agent").textContent = view.agent;
    byId("session-info").textContent = view.updated_at === null ? "" :
      `${view.status}, owner ${view.owner || "-"}, agent version ${view.spec_version || "-"}, last active ${view.updated_at} UTC`;
    const lastCard = new Map();
    view.turns.forEach((turn, index) => {
      if (turn.pending_action) lastCard.set(turn.pending_action.id, index);
    });
    const messages = view.turns.flatMap((turn, index) => turnMessages(turn, index, lastCard, view.writable));
    if (!messages.length) {
      messages.push(el("li", {className: "hint"},
        view.writable ? "Say something to start: the agent answers as it would in Slack or Discord."
                      : "This session has no turns."));
    }
    byId("messages").replaceChildren(...messages);
    byId("turns").replaceChildren(...view.turns.map((turn, index) => turnArticle(turn, index,
                                                                                  index === view.turns.length - 1)));
    byId("redaction").hidden = !view.redacted;
    byId("state-panel").hidden = !view.state;
    byId("state").textContent = view.state || "";
    byId("actions-panel").hidden = !view.actions.length;
    byId("actions").replaceChildren(...view.actions.map((action) => card(action, false, false)));
    byId("export").disabled = !view.exportable;
    body.dataset.turns = String(view.turns.length);
    const last = byId("messages").lastElementChild;
    if (last) last.scrollIntoView({block: "nearest"});
  }

  function turnMessages(turn, index, lastCard, writable) {
    const out = [];
    const said = turn.click ? `Clicked ${turn.click.decision === "confirm" ? "Confirm" : "Cancel"}` : turn.message;
    out.push(el("li", {className: "msg user" + (turn.click ? " click" : ""), dataset: {turn: String(index)},
                       onclick: () => showTurn(index)}, said));
    if (turn.reply !== null) {
      out.push(el("li", {className: "msg bot", dataset: {turn: String(index)}, onclick: () => showTurn(index)},
                  turn.reply));
    }
    if (turn.pending_action) {
      const current = lastCard.get(turn.pending_action.id) === index;
      out.push(el("li", {className: "msg card-holder"}, card(turn.pending_action, current && writable, !current)));
    }
    return out;
  }

  function card(action, clickable, shownAgain) {
    const summary = el("dl", {className: "summary"},
      action.summary.map(([label, value]) => [el("dt", {}, label), el("dd", {}, value)]));
    const parts = [el("div", {className: "card-title"}, action.title), summary];
    if (clickable && action.status === "pending") {
      const confirm = el("button", {type: "button", className: "confirm" + (action.destructive ? " danger" : "")},
                         action.confirm_label);
      const cancel = el("button", {type: "button", className: "cancel"}, action.cancel_label);
      const click = (decision) => () => {
        if (decision === "confirm" && action.destructive && !window.confirm(`${action.title} cannot be undone.`)) return;
        confirm.disabled = cancel.disabled = true;
        busy(async () => renderSession(await api("POST", "/api/session/action",
                                                 {key: session.key, action_id: action.id, decision})));
      };
      confirm.addEventListener("click", click("confirm"));
      cancel.addEventListener("click", click("cancel"));
      parts.push(el("div", {className: "buttons"}, confirm, cancel));
      if (action.expires_at) parts.push(el("div", {className: "expiry"}, `Expires ${action.expires_at} UTC`));
    } else {
      const why = action.reason ? ` (${action.reason})` : "";
      parts.push(el("div", {className: "status"}, shownAgain ? `Shown again below; now ${action.status}${why}`
                                                             : `Status: ${action.status}${why}`));
    }
    return el("div", {className: "card", dataset: {action: action.id, status: action.status}}, parts);
  }

  function showTurn(index) {
    const article = byId(`turn-${index}`);
    if (!article) return;
    article.open = true;
    article.scrollIntoView({block: "nearest"});
    article.classList.add("flash");
    article.addEventListener("animationend", () => article.classList.remove("flash"), {once: true});
  }

  // -- the inspector --------------------------------------------------------------------------------
  const NOT_TRACED = "not in the engine's traces: shown for conversations held in this console";

  function turnArticle(turn, index, open) {
    const total = turn.latencies.total;
    const heading = [`#${turn.number ?? "-"}`, turn.kind, turn.parse_source ? `parse: ${turn.parse_source}` : null,
                     turn.outcome, total !== undefined ? `${total} ms` : null].filter(Boolean).join(" · ");
    const rows = [
      row("User", turn.click ? `clicked ${turn.click.decision} on ${turn.click.action_id}` : turn.message, "user"),
      row(`Statements${turn.parse_source ? " (" + turn.parse_source + ")" : ""}`,
          el("pre", {className: "statements"}, turn.statements || "(none)"), "statements"),
      turn.notes && turn.notes.length ? row("Parser notes", list(turn.notes, "notes")) : null,
      turn.errors.length ? row("Interpreter errors", list(turn.errors, "errors")) : null,
      turn.rejections && turn.rejections.length ? row("Rejected values", list(turn.rejections.map(
        (r) => `${r.instance}.${r.field} = ${r.value}: ${r.reason}`), "rejections")) : null,
      row("Agent acts", list(turn.acts, "acts", "code")),
      row("State", turn.state_diff ? diffTable(turn.state_diff) : el("span", {className: "muted"}, NOT_TRACED),
          "state"),
      turn.knowledge && turn.knowledge.length ? row("Knowledge", turn.knowledge.map(knowledge)) : null,
      turn.api_calls && turn.api_calls.length ? row("API calls", turn.api_calls.map(apiCall)) : null,
      row("LLM", llm(turn.llm), "llm"),
      row("Latency", Object.entries(turn.latencies).map(([stage, ms]) => `${stage} ${ms}`).join(" · ") + " ms",
          "latency"),
      turn.pending_action ? row("Pending action", pending(turn.pending_action), "pending") : null,
      row("Reply", el("pre", {className: "reply"}, turn.reply ?? ""), "reply"),
    ];
    return el("details", {className: "turn", id: `turn-${index}`, open,
                          dataset: {outcome: turn.outcome, inspected: String(turn.inspected)}},
      el("summary", {}, heading), el("dl", {}, rows));
  }

  function row(label, content, name) {
    return [el("dt", {}, label), el("dd", {className: name || null}, content)];
  }

  function list(items, className, itemTag) {
    return el("ul", {className}, items.map((item) => el("li", {}, itemTag ? el(itemTag, {}, item) : item)));
  }

  function diffTable(changes) {
    if (!changes.length) return el("span", {className: "muted"}, "no change");
    return el("table", {className: "diff"}, changes.map((change) => [
      el("tr", {className: `instance ${change.change}`},
         el("th", {colspan: "3"}, `${change.instance} (${change.worksheet}) ${change.change}`)),
      change.fields.map((f) => el("tr", {className: "field"},
        el("td", {className: "name"}, f.field),
        el("td", {className: f.before === null ? "before none" : "before"}, f.before ?? "—"),
        el("td", {className: f.after === null ? "after none" : "after"}, f.after ?? "—"))),
    ]));
  }

  function knowledge(query) {
    return el("div", {className: "knowledge"},
      el("div", {}, "Question: ", query.question),
      query.query ? el("pre", {className: "query"}, query.query) : null,
      query.error ? el("div", {className: "error"}, query.error) : el("pre", {className: "result"}, query.result));
  }

  function apiCall(call) {
    return el("div", {className: "api-call"},
      el("div", {}, el("code", {}, call.function), ` for ${call.instance}`,
         call.side_effects ? el("span", {className: "tag"}, "side effect") : null),
      el("pre", {className: "args"}, call.args),
      call.error ? el("div", {className: "error"}, call.error) : el("pre", {className: "result"}, "→ " + call.result));
  }

  function llm(usage) {
    const cost = usage.cost_usd === null ? "cost not recorded" : `$${usage.cost_usd.toFixed(6)}`;
    const line = el("span", {className: "llm-total"},
      `${usage.calls} call(s), ${usage.prompt_tokens} prompt + ${usage.completion_tokens} completion tokens, ${cost}`);
    if (!usage.records || !usage.records.length) return line;
    return [line, el("table", {className: "llm-calls"},
      el("tr", {}, ["role", "model", "tokens", "ms", "cost", ""].map((h) => el("th", {}, h))),
      usage.records.map((r) => el("tr", {},
        el("td", {}, r.role), el("td", {}, r.model), el("td", {}, `${r.prompt_tokens} + ${r.completion_tokens}`),
        el("td", {}, String(r.latency_ms)), el("td", {}, `$${r.cost_usd.toFixed(6)}`),
        el("td", {}, r.error ? `failed: ${r.error}` : r.retries ? `${r.retries} retries` : ""))))];
  }

  function pending(action) {
    return [el("code", {}, action.id), ` ${action.api || action.instance}: `,
            el("span", {className: `status-${action.status}`}, action.status),
            action.reason ? ` (${action.reason})` : "",
            action.result ? el("pre", {className: "result"}, action.result) : null];
  }

  // -- exporting a conversation test -----------------------------------------------------------------
  async function exportScenario() {
    const result = await busy(() => api("GET", "/api/session/scenario?key=" + encodeURIComponent(session.key)));
    if (!result) return;
    byId("export-panel").hidden = false;
    byId("export-filename").textContent = result.filename;
    byId("export-yaml").textContent = result.text;
    const passes = !result.problems.length;
    byId("export-status").textContent = passes
      ? `Passes genie-bot test. Save it as AGENT_DIR/tests/${result.filename}.`
      : "Does not pass genie-bot test as it is (an LLM parser may read messages otherwise than the rules):";
    byId("export-status").className = passes ? "passes" : "fails";
    byId("export-problems").replaceChildren(...result.problems.map((p) => el("li", {}, el("pre", {}, p))));
    const link = el("a", {href: URL.createObjectURL(new Blob([result.text], {type: "application/yaml"})),
                          download: result.filename, hidden: true});
    body.append(link);
    link.click();
    link.remove();
    byId("export-panel").scrollIntoView({block: "nearest"});
  }

  function startSession() {
    const composer = byId("composer");
    if (composer) {
      composer.addEventListener("submit", (event) => {
        event.preventDefault();
        const input = byId("message");
        const text = input.value.trim();
        if (!text || body.dataset.busy === "true") return;
        input.disabled = true;
        busy(async () => {
          renderSession(await api("POST", "/api/session/message", {key: session.key, text}));
          input.value = "";
        }).finally(() => {
          input.disabled = false;
          input.focus();
        });
      });
    }
    byId("export").addEventListener("click", exportScenario);
    const reload = byId("reload");
    if (reload) {
      reload.addEventListener("click", () => busy(async () => {
        const report = await api("POST", "/api/reload", {});
        notice(report.lines.join("\n"));
      }));
    }
    busy(async () => renderSession(await api("GET", "/api/session?key=" + encodeURIComponent(session.key))));
  }

  // -- the list of sessions -------------------------------------------------------------------------
  // A deployment serving several Slack workspaces or Discord servers: its sessions by workspace.
  function renderFilter(data) {
    const workspaces = data.sections.flatMap((section) => section.workspaces || []);
    const chosen = data.filter.workspace ? data.filter.platform + "/" + data.filter.workspace : "";
    const select = el("select", {id: "workspace-filter"},
      el("option", {value: ""}, "every workspace"),
      workspaces.map((w) => el("option", {value: w.platform + "/" + w.workspace,
                                          selected: chosen === w.platform + "/" + w.workspace},
                               `${w.platform} ${w.workspace} (${w.sessions})`)));
    select.addEventListener("change", () => {
      const [platform, ...workspace] = select.value.split("/");
      const query = select.value ? new URLSearchParams({platform, workspace: workspace.join("/")}) : "";
      window.location.search = query ? "?" + query : "";
    });
    byId("filter").replaceChildren(...(workspaces.length > 1 || chosen
      ? [el("p", {}, el("label", {}, "Workspace / server: ", select))] : []));
  }

  function renderSessions(data) {
    renderFilter(data);
    byId("agents").replaceChildren(...(data.agents.length ? [el("p", {}, "New conversation with: ",
      data.agents.map((agent) => [el("a", {href: "/new?agent=" + encodeURIComponent(agent), className: "agent"}, agent),
                                  " "]))] : []));
    byId("sections").replaceChildren(...data.sections.map((section) => el("section", {},
      el("h2", {}, section.title),
      section.sessions.length ? el("table", {className: "sessions"},
        el("tr", {}, ["updated (UTC)", "workspace", "agent", "status", "turns", "owner", "session"]
          .map((h) => el("th", {}, h))),
        section.sessions.map((s) => el("tr", {},
          el("td", {}, s.updated_at), el("td", {}, `${s.platform} ${s.workspace}`), el("td", {}, s.agent),
          el("td", {}, s.status), el("td", {}, String(s.turns)),
          el("td", {}, s.owner || "-"), el("td", {}, el("a", {href: sessionUrl(s.key)}, s.key)))))
        : el("p", {className: "muted"}, "No session yet."))));
    body.dataset.ready = "true";
  }

  if (body.dataset.page === "session") startSession();
  if (body.dataset.page === "sessions") {
    busy(async () => renderSessions(await api("GET", "/api/sessions" + window.location.search)));
  }
})();
