// widget.js: what every widget shares. A widget is an iframe on a
// partner's page; it waits for the host to post it a token, calls the
// sandbox's public APIs with it, and tells the host what happened by
// postMessage. No build step, no framework: plain ES2020.
//
// A widget is a gateway to a customer's card and answers: it listens to
// its parent window alone (never a sibling frame, an opener or itself),
// and only at an origin the page it was served with allows (the app's
// widget origins, which the sandbox writes in the page; "*" on a
// developer's sandbox); it posts its results to that parent's origin
// alone, never "*".
"use strict";
(function () {
  let token = null;
  let parentOrigin = null; // where the token came from: where results go
  const waiting = [];
  const watchers = [];

  const meta = document.querySelector('meta[name="homologa-widget-origins"]');
  const allowedOrigins = ((meta && meta.content) || "").split(/\s+/).filter(Boolean);
  // The sandbox's own pages (its example host page) may always talk to
  // its widgets; "null" (a sandboxed or local page) never.
  const allowed = (origin) => origin !== "null" && (origin === location.origin || allowedOrigins.includes("*") || allowedOrigins.includes(origin));
  const framed = window.parent && window.parent !== window;

  // The host posts {event: "notify", property: "Auth" | "access_token" |
  // "Token", value: <bearer token>} (insurance SUMMARY §3.10: the card
  // widget says Auth, the forms widget access_token, older forms Token).
  window.addEventListener("message", (ev) => {
    if (!framed || ev.source !== window.parent || !allowed(ev.origin)) return;
    const m = typeof ev.data === "string" ? safeJSON(ev.data) : ev.data;
    if (!m || m.event !== "notify" || !["Auth", "access_token", "Token"].includes(m.property) || !m.value) return;
    token = String(m.value);
    parentOrigin = ev.origin;
    while (waiting.length) waiting.shift()(token);
    watchers.forEach((cb) => cb(token));
  });

  // The parent's origin, before it has posted a token: the browser says
  // it (Chromium's ancestorOrigins); without it, nothing is posted yet.
  function target() {
    if (parentOrigin) return parentOrigin;
    const a = location.ancestorOrigins;
    return a && a.length && allowed(a[0]) ? a[0] : null;
  }

  function safeJSON(s) { try { return JSON.parse(s); } catch { return null; } }

  const Widget = {
    // onToken runs cb with the token once the host has posted it.
    onToken(cb) { if (token) cb(token); else waiting.push(cb); },
    token() { return token; },

    // everyToken runs cb with the token now (if the host has posted one)
    // and each time the host posts another: tokens expire (an hour of
    // sandbox time), and a host renews one by posting it again.
    everyToken(cb) { watchers.push(cb); if (token) cb(token); },

    // post tells the host page; the body is a JSON string, as the real
    // card widget sends (the host parses it).
    post(payload) {
      const to = framed ? target() : null;
      if (to) window.parent.postMessage(JSON.stringify(payload), to);
    },

    // api calls the sandbox with the host's token; it resolves to
    // {status, body} and never throws on an HTTP error status. extraHeaders
    // (optional) go with it, e.g. an Idempotency-Key on a creating POST.
    async api(method, path, body, extraHeaders) {
      const headers = { "Authorization": "Bearer " + token };
      if (extraHeaders) Object.assign(headers, extraHeaders);
      if (body !== undefined) headers["Content-Type"] = "application/json";
      const resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await resp.text();
      return { status: resp.status, body: safeJSON(text) ?? text };
    },

    // stream opens the event websocket for the host's company, filtered by
    // types (comma-separated), and calls onEvent with each envelope.
    stream(types, onEvent) {
      const proto = location.protocol === "https:" ? "wss:" : "ws:";
      const q = new URLSearchParams({ access_token: token });
      if (types) q.set("types", types);
      const ws = new WebSocket(proto + "//" + location.host + "/events/ws?" + q);
      ws.onmessage = (m) => { const e = safeJSON(m.data); if (e) onEvent(e); };
      return ws;
    },

    // messages turns an error answer of any dialect into readable lines.
    messages(body) {
      if (!body || typeof body !== "object") return [String(body)];
      if (Array.isArray(body.Mensagens) && body.Mensagens.length)
        return body.Mensagens.map((m) => (m.Campo ? m.Campo + ": " : "") + (m.Descricao || m.Mensagem || m.Codigo || JSON.stringify(m)));
      if (body.detail || body.title) return [body.detail || body.title];
      if (body.violacoes) return body.violacoes.map((v) => v.propriedade + ": " + v.razao);
      return [JSON.stringify(body)];
    },

    // status writes a message in the widget's live region (screen readers
    // announce it).
    status(el, text, kind) {
      el.textContent = text;
      el.className = "status" + (kind ? " " + kind : "");
    },
  };
  window.Widget = Widget;
})();

// What the follow-up widgets share (proposal and benefit timelines,
// pendings, benefit notice): a reconnecting event stream, files read in
// the browser, insurer errors placed next to their fields, and the
// timeline both timelines draw.
(function (Widget) {
  // Status codes in words, for people; the code stays in data-status.
  const labels = {
    RECEBIDA: "Recebida", EM_ANALISE: "Em análise", PENDENTE: "Pendente", APROVADA: "Aprovada", IMPLANTADA: "Implantada",
    RECUSADA: "Recusada", CANCELADA: "Cancelada", AVISADO: "Avisado", EM_REGULACAO: "Em regulação", APROVADO: "Aprovado",
    PAGO: "Pago", RECUSADO: "Recusado", REABERTO: "Reaberto", CANCELADO: "Cancelado", ABERTA: "Aberta",
    RESPONDIDA: "Respondida", RESOLVIDA: "Resolvida", REJEITADA: "Rejeitada",
  };

  Object.assign(Widget, {
    // maxDocument is the insurer's limit on one attached document
    // (decoded): refusing a bigger file here saves uploading it.
    maxDocument: 5 << 20,

    label(code) { return labels[code] || String(code || "").replaceAll("_", " "); },

    // param reads a widget parameter from the query string, or else the
    // last path segment (/widgets/pendencias/123 as well as ?numeroProposta=123).
    param(name) {
      const v = new URLSearchParams(location.search).get(name);
      if (v) return v.trim();
      const seg = location.pathname.split("/").filter(Boolean);
      return seg.length > 2 && /^\d+$/.test(seg[seg.length - 1]) ? seg[seg.length - 1] : "";
    },

    // when writes an RFC 3339 instant for people, in Brasília time (the
    // insurer's), keeping the instant itself for machines.
    when(iso) {
      const t = document.createElement("time");
      t.dateTime = iso || "";
      const d = new Date(iso);
      t.textContent = isNaN(d) ? String(iso || "") :
        d.toLocaleString("pt-BR", { timeZone: "America/Sao_Paulo", dateStyle: "short", timeStyle: "medium" }) + " (Brasília)";
      return t;
    },

    // el builds an element: attributes (on* are listeners, booleans set
    // or drop the attribute) and children (strings become text).
    el(tag, attrs, ...children) {
      const e = document.createElement(tag);
      for (const [k, v] of Object.entries(attrs || {})) {
        if (v === undefined || v === null || v === false) continue;
        if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, v === true ? "" : String(v));
      }
      for (const c of children.flat(Infinity)) if (c !== undefined && c !== null && c !== false) e.append(c);
      return e;
    },

    // newKey is an Idempotency-Key. crypto.randomUUID needs a secure
    // context, which a sandbox on plain http outside loopback is not.
    newKey() {
      const b = crypto.getRandomValues(new Uint8Array(16));
      return "widget-" + Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    },

    // follow streams the events of types (comma-separated, * wildcards)
    // about subject ("numeroProposta:123") to onEvent, for as long as the
    // widget lives: a dropped stream reconnects with back-off and resumes
    // after the last event seen (?since=), with the newest token.
    // onState hears "open" on each (re)connection, when a widget should
    // reload what it shows, and "closed".
    follow(opts, onEvent, onState) {
      let last = -1, wait = 1000, stopped = false, ws = null;
      const connect = () => {
        if (stopped) return;
        const q = new URLSearchParams({ access_token: Widget.token() || "" });
        if (opts.types) q.set("types", opts.types);
        if (opts.subject) q.set("subject", opts.subject);
        if (last >= 0) q.set("since", String(last));
        ws = new WebSocket((location.protocol === "https:" ? "wss:" : "ws:") + "//" + location.host + "/events/ws?" + q);
        ws.onopen = () => { wait = 1000; if (onState) onState("open"); };
        ws.onmessage = (m) => {
          let e;
          try { e = JSON.parse(m.data); } catch { return; }
          if (typeof e.sequence === "number") {
            if (e.sequence <= last) return; // replayed after a reconnection
            last = e.sequence;
          }
          onEvent(e);
        };
        ws.onclose = () => {
          if (onState) onState("closed");
          if (stopped) return;
          setTimeout(connect, wait);
          wait = Math.min(wait * 2, 30000);
        };
      };
      connect();
      return { close() { stopped = true; if (ws) ws.close(); } };
    },

    // serial wraps an async load so that calls never overlap: a call made
    // while one runs makes it run once more, so the last state wins.
    serial(load) {
      let running = false, again = false;
      return async function run() {
        if (running) { again = true; return; }
        running = true;
        try {
          do { again = false; await load(); } while (again);
        } finally { running = false; }
      };
    },

    // readFile reads a chosen file as the insurer's documento:
    // {nomeArquivo, formato, conteudoBase64}. formato is the extension
    // in capitals (PDF), as the insurer's examples write it.
    readFile(file) {
      return new Promise((resolve, reject) => {
        const r = new FileReader();
        r.onerror = () => reject(r.error || new Error("não foi possível ler " + file.name));
        r.onload = () => {
          const url = String(r.result);
          const ext = (file.name.match(/\.([A-Za-z0-9]{1,10})$/) || [])[1];
          const formato = (ext || (file.type.split("/")[1] || "")).toUpperCase();
          resolve({ nomeArquivo: file.name, formato, conteudoBase64: url.slice(url.indexOf(",") + 1) });
        };
        r.readAsDataURL(file);
      });
    },

    // clearErrors empties a form's field errors.
    clearErrors(form) {
      form.querySelectorAll("[data-erro-de]").forEach((p) => { p.textContent = ""; });
      form.querySelectorAll("[aria-invalid]").forEach((f) => f.removeAttribute("aria-invalid"));
    },

    // fieldError writes message next to the field named key (its
    // [data-erro-de] paragraph) and marks the field invalid; false when
    // the form has no such field.
    fieldError(form, key, message) {
      const p = form.querySelector(`[data-erro-de="${CSS.escape(key)}"]`);
      if (!p) return false;
      p.textContent = p.textContent ? p.textContent + " " + message : message;
      const f = form.querySelector(`[name="${CSS.escape(key)}"]`);
      if (f) f.setAttribute("aria-invalid", "true");
      return true;
    },

    // fieldErrors places an insurer answer's Mensagens next to their
    // fields: Campo "comunicante.documento" goes to the field of that
    // name, "documentos.1.conteudoBase64" to the closest one that exists
    // (resolve may rename a Campo first). It returns the lines no field
    // took, and focuses the first invalid field so that a screen reader
    // reads its error.
    fieldErrors(form, body, resolve) {
      Widget.clearErrors(form);
      const rest = [];
      const msgs = body && Array.isArray(body.Mensagens) ? body.Mensagens : null;
      if (!msgs) return Widget.messages(body);
      for (const m of msgs) {
        const text = m.Descricao || m.Codigo || JSON.stringify(m);
        let key = m.Campo ? (resolve ? resolve(m.Campo) : m.Campo) : "";
        let placed = false;
        while (key && !placed) {
          placed = Widget.fieldError(form, key, text);
          key = key.includes(".") ? key.slice(0, key.lastIndexOf(".")) : "";
        }
        if (!placed) rest.push((m.Campo ? m.Campo + ": " : "") + text);
      }
      const first = form.querySelector("[aria-invalid=true]");
      if (first) first.focus();
      return rest;
    },

    // problem says in words why a call failed, for the status line.
    problem(r, what) {
      if (r.status === 0) return "Sem conexão com o serviço: " + r.body;
      if (r.status === 401) return "O token expirou ou não vale: a página deve enviar um novo.";
      if (r.status === 403) return "O token não dá acesso a " + what + ": " + Widget.messages(r.body).join(" ");
      return Widget.messages(r.body).join(" ");
    },

    // call is api that also resolves on a network failure, as status 0.
    async call(method, path, body, extraHeaders) {
      try {
        return await Widget.api(method, path, body, extraHeaders);
      } catch (err) {
        return { status: 0, body: String(err && err.message || err) };
      }
    },

    // mountTimeline draws a resource's status history in list and keeps
    // it live: it reloads path on every event of follow (and on every
    // (re)connection and new token), and when a reload fails (a token
    // expired mid-way) it still shows what the events said, by
    // fromEvent(e) → entry. report(current, entries) hears each change.
    mountTimeline(o) {
      let fetched = [], heard = [], shown = { n: -1, status: "" }, started = false;
      const draw = () => {
        const entries = fetched.concat(heard);
        o.list.replaceChildren(...entries.map((e) => Widget.el("li", { "data-status": e.status },
          Widget.el("span", { class: "estado" }, Widget.label(e.status)), " ",
          Widget.when(e.data),
          e.descricao ? Widget.el("span", { class: "descricao" }, e.descricao) : null,
          (e.pendencias || []).map((p) => Widget.el("span", { class: "hint" },
            "Pendência " + p.id + " (" + (p.codigo || p.grupo || "") + "): " + Widget.label(p.status))),
          e.usuario ? Widget.el("span", { class: "hint" }, "por " + e.usuario) : null)));
        const current = entries.length ? entries[entries.length - 1].status : "";
        if (o.current) o.current.textContent = current ? Widget.label(current) : "—";
        if (entries.length === shown.n && current === shown.status) return "";
        const news = shown.n < 0 ? entries.length + " registro(s); status atual: " + Widget.label(current) + "."
          : "Novo registro: " + Widget.label(current) + ".";
        shown = { n: entries.length, status: current };
        o.report(current, entries);
        return news;
      };
      // An entry heard from an event is the timeline's own once a reload
      // that started after the event has it (the timeline keeps seconds).
      const same = (e) => [e.status, e.descricao, String(e.data || "").slice(0, 19)].join("|");
      const reload = Widget.serial(async () => {
        const before = heard.length;
        const r = await Widget.call("GET", o.path);
        if (r.status === 200 && r.body && Array.isArray(r.body.Valor)) {
          fetched = r.body.Valor;
          const got = new Set(fetched.map(same));
          heard = heard.slice(before).filter((e) => !got.has(same(e)));
          const news = draw();
          if (news || o.status.classList.contains("error")) Widget.status(o.status, news || "Histórico atualizado.", "ok");
          return;
        }
        // What the events said is still news when the reload failed.
        const news = heard.length ? draw() : "";
        Widget.status(o.status, (news ? news + " " : "") + Widget.problem(r, o.what), "error");
        Widget.post({ event: "erro", widget: o.widget, status: r.status, mensagens: Widget.messages(r.body) });
      });
      Widget.everyToken(() => {
        reload();
        if (started) return;
        started = true;
        Widget.follow(o.follow, (e) => {
          const entry = o.fromEvent(e);
          if (entry) {
            // An answer does not move the resource: it keeps its status.
            const all = fetched.concat(heard);
            if (!entry.status && all.length) entry.status = all[all.length - 1].status;
            heard.push(entry);
          }
          reload();
        }, (state) => { if (state === "open") reload(); });
      });
    },

    // pendingList keeps the open pendings of a proposal or a benefit on the
    // page: update(open) adds the new ones (section(p) draws one), removes
    // the answered ones without losing the focus, redraws none (an answer
    // being typed survives the events), and announces changes in o.status
    // and to the host by o.announce(abertas).
    pendingList(o) {
      const shown = new Map();
      let loaded = false;
      return {
        update(open) {
          const ids = new Set(open.map((p) => String(p.id)));
          for (const [id, sec] of shown) {
            if (ids.has(id)) continue;
            if (sec.contains(document.activeElement)) o.titulo.focus();
            sec.remove();
            shown.delete(id);
          }
          const novas = [];
          for (const p of open) {
            if (shown.has(String(p.id))) continue;
            const sec = o.section(p);
            o.lista.append(sec);
            shown.set(String(p.id), sec);
            novas.push(p.id);
          }
          o.vazio.hidden = shown.size > 0;
          if (!loaded || novas.length) {
            Widget.status(o.status, !loaded ? shown.size + " pendência(s) aberta(s)." :
              novas.length === 1 ? "Nova pendência aberta." : novas.length + " novas pendências abertas.", "ok");
            o.announce([...shown.keys()].map(Number));
          } else if (o.status.classList.contains("error")) {
            Widget.status(o.status, shown.size + " pendência(s) aberta(s).", "ok");
          }
          loaded = true;
        },
      };
    },
  });
})(window.Widget);
