// questionario.js: the forms widget. The partner frames
//   /widgets/questionario/v2/responder/{questionarioId}/Venda/{numeroProposta}/{corPrimaria}/{corSecundaria}?listenForToken=true
// (the evidenced URL; colours are hex without "#"), posts it the token
// ({event: "notify", property: "access_token" | "Token", value}), and the
// customer answers the offer's questionnaire. The answers are saved with
// PUT /insurer/v1/proposta/{numero}/questionario/{id}; the host page is
// told {event: "questionario", status: "salvo", numeroProposta,
// questionarioId}. numeroProposta may be a proposal or a number reserved
// for one (the questionnaire comes before the proposal in a sale).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const form = $("form"), status = $("status"), list = $("perguntas"), salvar = $("salvar");

  // The path after .../responder/: {id}/{origem}/{numero}/{cor1}/{cor2}.
  const segs = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const at = segs.indexOf("responder");
  const [qidS, origem, numeroS, cor1, cor2] = at >= 0 ? segs.slice(at + 1) : [];
  const qid = Number(qidS), numero = Number(numeroS);

  applyColours(cor1, cor2);

  const problems = [];
  if (!(qid > 0)) problems.push("o id do questionário");
  if (origem !== "Venda") problems.push("a origem Venda");
  if (!(numero > 0)) problems.push("o número da proposta");
  if (problems.length) {
    Widget.status(status, "Widget mal configurado pelo site parceiro: a URL deve trazer " + problems.join(", ") +
      " (…/responder/{questionarioId}/Venda/{numeroProposta}/{corPrimaria}/{corSecundaria}).", "error");
    return;
  }
  $("sub").textContent = "Proposta " + numero;
  Widget.onToken(load);

  // applyColours takes the partner's colours and picks, for text on each,
  // black or white, whichever contrasts more (AA needs 4.5:1; one of the
  // two always reaches it).
  function applyColours(p, s) {
    const root = document.documentElement.style;
    for (const [hex, name] of [[p, "primary"], [s, "secondary"]]) {
      const rgb = parseHex(hex);
      if (!rgb) continue;
      root.setProperty("--" + name, "#" + hex);
      const l = luminance(rgb);
      root.setProperty("--" + name + "-text", (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000" : "#fff");
    }
  }
  function parseHex(h) {
    if (!h || !/^([0-9a-f]{3}|[0-9a-f]{6})$/i.test(h)) return null;
    if (h.length === 3) h = h.replace(/./g, "$&$&");
    return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  }
  function luminance(rgb) {
    const [r, g, b] = rgb.map((c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }

  let questionario = null;

  async function load() {
    Widget.status(status, "Carregando o questionário…");
    // The saved answers' resource names the offer of the proposal (or of
    // the reserved number) and holds what was answered before.
    const saved = await Widget.api("GET", `/insurer/v1/proposta/${numero}/questionario/${qid}`);
    if (saved.status !== 200) return failed("Não foi possível abrir o questionário", saved);
    const modelo = saved.body.Valor.modeloProposta;
    const qs = await Widget.api("GET", "/insurer/v1/questionario?codigoModeloProposta=" + encodeURIComponent(modelo));
    if (qs.status !== 200) return failed("Não foi possível ler as perguntas", qs);
    questionario = (qs.body.Valor || []).find((q) => q.id === qid);
    if (!questionario) return Widget.status(status, `O modelo ${modelo} não tem o questionário ${qid}.`, "error");
    $("titulo").textContent = questionario.descricao;
    document.title = questionario.descricao;
    $("sub").textContent = `Proposta ${numero} · modelo ${modelo}`;
    render(questionario.perguntas);
    fill(saved.body.Valor.respostas || []);
    form.hidden = false;
    Widget.status(status, saved.body.Valor.situacao === "RESPONDIDO"
      ? "Este questionário já foi respondido; altere o que quiser e salve de novo."
      : "Responda às perguntas e salve. As marcadas como obrigatórias precisam de resposta.");
  }

  function failed(what, ans) {
    Widget.status(status, what + ": " + Widget.messages(ans.body).join("; "), "error");
  }

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
    e.append(...kids);
    return e;
  }
  const reqText = (pg) => pg.obrigatoria ? el("span", { class: "req" }, " (obrigatória)") : "";

  // render builds one block per question, by its tipoResposta; every
  // control has a label and points at its error message.
  function render(perguntas) {
    list.replaceChildren();
    for (const pg of perguntas) {
      const id = "p" + pg.id, err = id + "-erro";
      const erro = el("p", { id: err, class: "field-error" });
      let block;
      const common = { "aria-describedby": err, "aria-required": pg.obrigatoria ? "true" : undefined };
      switch (pg.tipoResposta) {
        case "SIM_NAO":
          block = el("fieldset", { class: "q", role: "radiogroup", "data-tipo": pg.tipoResposta, "data-pergunta": pg.id, ...common },
            el("legend", {}, pg.descricao, reqText(pg)),
            el("div", { class: "opcoes" },
              el("span", {}, el("input", { type: "radio", name: id, id: id + "-sim", value: "true" }), el("label", { for: id + "-sim" }, "Sim")),
              el("span", {}, el("input", { type: "radio", name: id, id: id + "-nao", value: "false" }), el("label", { for: id + "-nao" }, "Não"))),
            erro);
          break;
        case "DOMINIO": {
          const sel = el("select", { id, ...common }, el("option", { value: "" }, "Selecione…"));
          for (const op of pg.opcoes || []) sel.append(el("option", { value: String(op.id) }, op.descricao));
          block = el("div", { class: "q", "data-tipo": pg.tipoResposta, "data-pergunta": pg.id }, el("label", { for: id }, pg.descricao, reqText(pg)), sel, erro);
          break;
        }
        case "TEXTO":
          block = el("div", { class: "q", "data-tipo": pg.tipoResposta, "data-pergunta": pg.id }, el("label", { for: id }, pg.descricao, reqText(pg)),
            el("textarea", { id, rows: "3", maxlength: "4000", ...common }), erro);
          break;
        case "VALOR":
          // Text with a decimal keypad: a number input would refuse the
          // Brazilian decimal comma.
          block = el("div", { class: "q", "data-tipo": pg.tipoResposta, "data-pergunta": pg.id }, el("label", { for: id }, pg.descricao, reqText(pg)),
            el("input", { id, type: "text", inputmode: "decimal", autocomplete: "off", ...common }), erro);
          break;
        case "DATA":
          block = el("div", { class: "q", "data-tipo": pg.tipoResposta, "data-pergunta": pg.id }, el("label", { for: id }, pg.descricao, reqText(pg)),
            el("input", { id, type: "date", ...common }), erro);
          break;
        default:
          block = el("div", { class: "q", "data-tipo": pg.tipoResposta, "data-pergunta": pg.id },
            el("p", {}, pg.descricao, ` (tipo de resposta ${pg.tipoResposta} não suportado por este widget)`));
      }
      list.append(block);
    }
  }

  // read returns {valor, error} for one question: valor null when
  // unanswered.
  function read(pg) {
    const id = "p" + pg.id;
    let raw;
    switch (pg.tipoResposta) {
      case "SIM_NAO": {
        const c = form.querySelector(`input[name="${id}"]:checked`);
        raw = c ? c.value === "true" : null;
        break;
      }
      case "DOMINIO": raw = $(id).value === "" ? null : Number($(id).value); break;
      case "TEXTO": raw = $(id).value.trim() || null; break;
      case "VALOR": {
        const v = $(id).value.trim();
        if (!v) { raw = null; break; }
        const s = v.includes(",") ? v.replace(/\./g, "").replace(",", ".") : v;
        if (!/^-?\d+(\.\d+)?$/.test(s)) return { error: "Informe um número (ex.: 72,5)." };
        raw = Number(s);
        break;
      }
      case "DATA": {
        const v = $(id).value;
        if (!v) {
          // A date input holding a half-typed date reports "" but is invalid.
          if ($(id).validity && $(id).validity.badInput) return { error: "Data incompleta ou inválida." };
          raw = null;
          break;
        }
        raw = v;
        break;
      }
      default: raw = null;
    }
    if (raw === null && pg.obrigatoria) return { error: "Resposta obrigatória." };
    return { valor: raw };
  }

  function fill(respostas) {
    for (const r of respostas) {
      const id = "p" + r.perguntaId;
      if (r.tipoResposta === "SIM_NAO") {
        const c = $(id + (r.valor ? "-sim" : "-nao"));
        if (c) c.checked = true;
      } else if ($(id)) {
        $(id).value = r.tipoResposta === "VALOR" ? String(r.valor).replace(".", ",") : String(r.valor);
      }
    }
  }

  function setError(perguntaId, msg) {
    const block = list.querySelector(`[data-pergunta="${perguntaId}"]`);
    if (!block) return;
    const err = $("p" + perguntaId + "-erro");
    if (err) err.textContent = msg || "";
    block.classList.toggle("invalid", !!msg);
    const ctl = block.matches("fieldset") ? block : $("p" + perguntaId);
    if (ctl) { if (msg) ctl.setAttribute("aria-invalid", "true"); else ctl.removeAttribute("aria-invalid"); }
  }

  function focusQuestion(perguntaId) {
    const block = list.querySelector(`[data-pergunta="${perguntaId}"]`);
    const target = block && (block.querySelector("input, select, textarea"));
    if (target) target.focus();
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (!questionario || salvar.disabled) return;
    const respostas = [], bad = [];
    for (const pg of questionario.perguntas) {
      const r = read(pg);
      setError(pg.id, r.error);
      if (r.error) bad.push(pg);
      else respostas.push({ perguntaId: pg.id, valor: r.valor });
    }
    if (bad.length) {
      Widget.status(status, (bad.length === 1 ? "1 pergunta precisa" : bad.length + " perguntas precisam") +
        " de atenção: " + bad.map((pg) => pg.descricao).join("; "), "error");
      focusQuestion(bad[0].id);
      return;
    }
    salvar.disabled = true;
    Widget.status(status, "Salvando…");
    let ans;
    try {
      ans = await Widget.api("PUT", `/insurer/v1/proposta/${numero}/questionario/${qid}`, { respostas });
    } catch (e) {
      ans = { status: 0, body: "sem resposta da seguradora" };
    }
    salvar.disabled = false;
    if (ans.status === 200) {
      Widget.status(status, "Respostas salvas.", "ok");
      Widget.post({ event: "questionario", status: "salvo", numeroProposta: numero, questionarioId: qid });
      return;
    }
    // Put each refusal on its question: the field is respostas.N.… (N
    // indexes what was sent) or respostas[perguntaId=N].
    let first = null;
    for (const m of (ans.body && ans.body.Mensagens) || []) {
      const byIndex = /^respostas\.(\d+)\./.exec(m.Campo || ""), byId = /perguntaId=(\d+)/.exec(m.Campo || "");
      const pid = byIndex ? respostas[+byIndex[1]]?.perguntaId : byId ? +byId[1] : null;
      if (pid) { setError(pid, m.Descricao); first = first ?? pid; }
    }
    if (first) focusQuestion(first);
    Widget.status(status, "A seguradora não aceitou as respostas: " + Widget.messages(ans.body).join("; "), "error");
    Widget.post({ event: "questionario", status: "erro", numeroProposta: numero, questionarioId: qid });
  });
})();
