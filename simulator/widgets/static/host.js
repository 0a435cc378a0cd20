// host.js: the example partner page. It does what a partner's page does
// with the insurer's widgets: get a token, frame each widget, post the
// token to it when it loads ({event: "notify", property, value}), and read
// what the widget posts back. Every message both ways goes to the log.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let token = null;

  // The seven widgets, the URL each is framed with (null: a parameter is
  // missing) and the property its token is posted under (insurance
  // SUMMARY §3.10: Auth for the card, access_token for the forms).
  const WIDGETS = [
    { key: "cartao-credito", name: "Cartão de crédito", property: "Auth", needs: "CPF e valor da compra",
      url: (p) => {
        if (!p.cpf || !p.valor) return null;
        const q = new URLSearchParams({ cnpj: p.cnpj, acao: "PreAutorizacao", valorCompra: p.valor });
        q.append("chave", "cpf"); q.append("valor", p.cpf);
        q.append("chave", "ModeloProposta"); q.append("valor", p.modelo);
        return "/widgets/cartao-credito/?" + q;
      } },
    { key: "questionario", name: "Questionário", property: "access_token", needs: "número da proposta e questionário",
      url: (p) => p.numero && p.questionario
        ? `/widgets/questionario/v2/responder/${enc(p.questionario)}/Venda/${enc(p.numero)}/${enc(p.cor1 || "0b5394")}/${enc(p.cor2 || "e8eef5")}?listenForToken=true`
        : null },
    { key: "timeline-proposta", name: "Timeline da proposta", property: "access_token", needs: "número da proposta",
      url: (p) => p.numero ? "/widgets/timeline-proposta/?numeroProposta=" + enc(p.numero) : null },
    { key: "pendencias", name: "Responder pendências", property: "access_token", needs: "número da proposta",
      url: (p) => p.numero ? "/widgets/pendencias/?numeroProposta=" + enc(p.numero) : null },
    { key: "aviso-beneficio", name: "Aviso de benefício", property: "access_token", needs: "inscrição",
      url: (p) => p.inscricao ? "/widgets/aviso-beneficio/?inscricao=" + enc(p.inscricao) : null },
    { key: "timeline-beneficio", name: "Timeline do benefício", property: "access_token", needs: "benefício",
      url: (p) => p.beneficio ? "/widgets/timeline-beneficio/?beneficio=" + enc(p.beneficio) : null },
    { key: "pendencia-beneficio", name: "Pendência de benefício", property: "access_token", needs: "benefício",
      url: (p) => p.beneficio ? "/widgets/pendencia-beneficio/?beneficio=" + enc(p.beneficio) : null },
  ];
  const enc = encodeURIComponent;
  const frames = new Map(); // key → iframe

  function params() {
    const v = (id) => $(id).value.trim();
    return { cnpj: v("cnpj").replace(/\D/g, ""), cpf: v("cpf").replace(/\D/g, ""), modelo: v("modelo"), valor: v("valor"),
      numero: v("numero"), questionario: v("questionario"), cor1: v("cor1").replace(/^#/, ""), cor2: v("cor2").replace(/^#/, ""),
      inscricao: v("inscricao"), beneficio: v("beneficio") };
  }

  // A token is shown shortened: the log is for reading, not for copying.
  const short = (t) => t.length > 12 ? t.slice(0, 8) + "…" + t.slice(-4) : t;

  function log(dir, widget, data) {
    const li = document.createElement("li");
    li.dataset.dir = dir === "→" ? "out" : "in";
    li.dataset.widget = widget.key;
    const time = new Date().toLocaleTimeString("pt-BR");
    const text = typeof data === "string" ? data : JSON.stringify(data);
    li.append(`${time} `, Object.assign(document.createElement("span"), { className: "dir", textContent: dir === "→" ? "→ " : "← " }),
      `${widget.name}: `, Object.assign(document.createElement("code"), { textContent: text }));
    $("log").append(li);
    $("log").scrollTop = $("log").scrollHeight;
  }

  function postToken(w, frame) {
    if (!token || !frame.contentWindow) return;
    const msg = { event: "notify", property: w.property, value: token };
    // The token goes to the widget's origin only, never "*".
    frame.contentWindow.postMessage(msg, new URL(frame.src, location.href).origin);
    log("→", w, { ...msg, value: short(token) });
  }

  function loadWidgets() {
    const p = params();
    const box = $("widgets");
    box.replaceChildren();
    frames.clear();
    for (const w of WIDGETS) {
      const sec = document.createElement("section");
      sec.className = "panel widget";
      sec.setAttribute("aria-labelledby", "h-" + w.key);
      const h = Object.assign(document.createElement("h2"), { id: "h-" + w.key, textContent: w.name });
      sec.append(h);
      const url = w.url(p);
      if (!url) {
        sec.append(Object.assign(document.createElement("p"), { className: "hint", textContent: `Informe ${w.needs} e carregue de novo.` }));
      } else {
        const f = document.createElement("iframe");
        f.title = "Widget: " + w.name;
        f.id = "frame-" + w.key;
        f.addEventListener("load", () => postToken(w, f));
        f.src = url;
        frames.set(w.key, f);
        sec.append(Object.assign(document.createElement("p"), { className: "url", textContent: url }), f);
      }
      box.append(sec);
    }
  }

  // What a widget posts: the card widget a JSON string (the insurer's
  // envelope), the forms widget an event; a partner reads both.
  window.addEventListener("message", (ev) => {
    const w = WIDGETS.find((x) => frames.get(x.key)?.contentWindow === ev.source);
    if (!w || ev.origin !== location.origin) return;
    log("←", w, ev.data);
    let m = ev.data;
    if (typeof m === "string") { try { m = JSON.parse(m); } catch { return; } }
    if (w.key === "cartao-credito" && m && m.Valor && m.Valor.CodigoPreAutorizacao) {
      $("num-pre-autorizacao").textContent = m.Valor.CodigoPreAutorizacao;
    }
    if (w.key === "questionario" && m && m.event === "questionario") {
      $("questionario-status").textContent = `${m.status} (proposta ${m.numeroProposta}, questionário ${m.questionarioId})`;
    }
  });

  function useToken(t, how) {
    token = t;
    $("token-status").className = "status ok";
    $("token-status").textContent = `Token ${how}: ${short(t)}. Enviado aos widgets carregados.`;
    for (const w of WIDGETS) if (frames.has(w.key)) postToken(w, frames.get(w.key));
  }

  $("token-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const id = $("client-id").value.trim(), secret = $("client-secret").value;
    const body = new URLSearchParams({ grant_type: "client_credentials" });
    if ($("scope").value.trim()) body.set("scope", $("scope").value.trim());
    $("token-status").className = "status";
    $("token-status").textContent = "Pedindo o token…";
    try {
      const resp = await fetch("/oauth/token", { method: "POST", body,
        headers: { "Authorization": "Basic " + btoa(enc(id) + ":" + enc(secret)) } });
      const out = await resp.json();
      if (!resp.ok) throw new Error(out.error_description || out.error || resp.status);
      useToken(out.access_token, `obtido (escopos: ${out.scope || "todos"})`);
    } catch (e) {
      $("token-status").className = "status error";
      $("token-status").textContent = "Não foi possível obter o token: " + e.message;
    }
  });

  $("paste-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const t = $("token-paste").value.trim();
    if (t) useToken(t, "colado");
  });

  $("reserve").addEventListener("click", async () => {
    if (!token) { $("token-status").className = "status error"; $("token-status").textContent = "Obtenha um token antes de reservar um número."; return; }
    const resp = await fetch(`/insurer/v1/proposals/${enc($("modelo").value.trim())}/next-number`,
      { method: "POST", headers: { "Authorization": "Bearer " + token } });
    const out = await resp.json().catch(() => ({}));
    if (resp.ok && out.proposalReservedNumber) {
      $("numero").value = out.proposalReservedNumber;
      $("token-status").className = "status ok";
      $("token-status").textContent = `Número ${out.proposalReservedNumber} reservado para o modelo ${$("modelo").value.trim()}.`;
    } else {
      $("token-status").className = "status error";
      $("token-status").textContent = "Reserva recusada: " + ((out.Mensagens || []).map((m) => m.Descricao).join("; ") || resp.status);
    }
  });

  $("params-form").addEventListener("submit", (ev) => { ev.preventDefault(); loadWidgets(); });
  $("clear-log").addEventListener("click", () => $("log").replaceChildren());

  // The page's own URL may preset any field (?numero=100001&cpf=…), so a
  // link can open it ready to use.
  for (const [k, v] of new URLSearchParams(location.search)) if ($(k) && $(k).tagName === "INPUT") $(k).value = v;
  loadWidgets();
})();
