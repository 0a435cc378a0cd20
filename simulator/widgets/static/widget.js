// widget.js: what every widget shares. A widget is an iframe on a
// partner's page; it waits for the host to post it a token, calls the
// sandbox's public APIs with it, and tells the host what happened by
// postMessage. No build step, no framework: plain ES2020.
"use strict";
(function () {
  let token = null;
  const waiting = [];

  // The host posts {event: "notify", property: "Auth" | "access_token" |
  // "Token", value: <bearer token>} (insurance SUMMARY §3.10: the card
  // widget says Auth, the forms widget access_token, older forms Token).
  window.addEventListener("message", (ev) => {
    const m = typeof ev.data === "string" ? safeJSON(ev.data) : ev.data;
    if (!m || m.event !== "notify" || !["Auth", "access_token", "Token"].includes(m.property) || !m.value) return;
    token = String(m.value);
    while (waiting.length) waiting.shift()(token);
  });

  function safeJSON(s) { try { return JSON.parse(s); } catch { return null; } }

  const Widget = {
    // onToken runs cb with the token once the host has posted it.
    onToken(cb) { if (token) cb(token); else waiting.push(cb); },
    token() { return token; },

    // post tells the host page; the body is a JSON string, as the real
    // card widget sends (the host parses it).
    post(payload) {
      if (window.parent && window.parent !== window) window.parent.postMessage(JSON.stringify(payload), "*");
    },

    // api calls the sandbox with the host's token; it resolves to
    // {status, body} and never throws on an HTTP error status.
    async api(method, path, body) {
      const headers = { "Authorization": "Bearer " + token };
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
