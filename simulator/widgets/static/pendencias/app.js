// Answer pendings: the proposal's open pendings (GET
// /insurer/v1/pendencia?numeroProposta=&status=ABERTA, scope
// apiseguradora), each answered with text and/or a document (PUT
// /insurer/v1/pendencia/{id}); the list follows the proposal's events.
"use strict";
(function () {
  const { el } = Widget;
  const numero = Widget.param("numeroProposta");
  const titulo = document.getElementById("titulo");
  const status = document.getElementById("status");
  const lista = document.getElementById("lista");
  const vazio = document.getElementById("vazio");
  if (!/^\d+$/.test(numero)) {
    Widget.status(status, "Informe o número da proposta no endereço do widget: ?numeroProposta=N.", "error");
    return;
  }
  titulo.textContent = "Pendências da proposta " + numero;

  // Open pendings by id. A reload adds and removes sections, never
  // redraws one: an answer being typed survives the events.
  const pendings = Widget.pendingList({ lista, vazio, titulo, status, section: (p) => section(p),
    announce: (abertas) => Widget.post({ event: "pendencias", numeroProposta: Number(numero), abertas }) });

  const reload = Widget.serial(async () => {
    const r = await Widget.call("GET", "/insurer/v1/pendencia?numeroProposta=" + numero + "&status=ABERTA");
    if (r.status !== 200 || !r.body || !Array.isArray(r.body.Valor)) {
      Widget.status(status, Widget.problem(r, "propostas (escopo apiseguradora)"), "error");
      Widget.post({ event: "erro", widget: "pendencias", status: r.status, mensagens: Widget.messages(r.body) });
      return;
    }
    pendings.update(r.body.Valor);
  });

  function section(p) {
    const base = "p" + p.id;
    const form = el("form", { novalidate: true },
      el("label", { for: base + "-resposta" }, "Resposta"),
      el("textarea", { id: base + "-resposta", name: "resposta", rows: 3, maxlength: 4000, "aria-describedby": base + "-resposta-erro" }),
      el("p", { id: base + "-resposta-erro", class: "field-error", "data-erro-de": "resposta" }),
      el("label", { for: base + "-documento" }, "Documento (opcional)"),
      el("input", { id: base + "-documento", name: "documento", type: "file", "aria-describedby": base + "-documento-dica " + base + "-documento-erro" }),
      el("p", { id: base + "-documento-dica", class: "hint" }, "PDF ou imagem, até 5 MB."),
      el("p", { id: base + "-documento-erro", class: "field-error", "data-erro-de": "documento" }),
      el("p", { class: "field-error", "data-erro-de": "" }),
      el("button", { type: "submit" }, "Responder pendência"));
    form.addEventListener("submit", (ev) => { ev.preventDefault(); answer(p, form); });
    return el("section", { class: "pendencia", "data-id": p.id, "aria-labelledby": base + "-titulo" },
      el("h2", { id: base + "-titulo" }, "Pendência " + p.id + ": " + (p.codigo || p.grupo)),
      el("p", {}, p.descricao),
      el("p", { class: "hint" }, "Grupo " + p.grupo + " · aberta em ", Widget.when(p.dataPendencia)),
      form);
  }

  async function answer(p, form) {
    Widget.clearErrors(form);
    const resposta = form.elements.resposta.value.trim();
    const file = form.elements.documento.files[0];
    if (!resposta && !file) {
      Widget.fieldError(form, "resposta", "Escreva uma resposta ou anexe um documento.");
      form.elements.resposta.focus();
      return;
    }
    if (file && file.size > Widget.maxDocument) {
      Widget.fieldError(form, "documento", "O documento tem " + file.size + " bytes; o limite é 5 MB.");
      form.elements.documento.focus();
      return;
    }
    const button = form.querySelector("button");
    button.disabled = true;
    Widget.status(status, "Enviando a resposta da pendência " + p.id + "…");
    try {
      const body = {};
      if (resposta) body.resposta = resposta;
      if (file) body.documento = await Widget.readFile(file);
      const r = await Widget.call("PUT", "/insurer/v1/pendencia/" + p.id, body);
      if (r.status === 200) {
        Widget.status(status, "Pendência " + p.id + " respondida.", "ok");
        Widget.post({ event: "pendencia", status: "respondida", id: p.id, numeroProposta: Number(numero) });
        reload();
        return;
      }
      const rest = Widget.fieldErrors(form, r.body);
      if (rest.length) Widget.fieldError(form, "", rest.join(" "));
      Widget.status(status, r.status === 401 ? Widget.problem(r) : "A seguradora não aceitou a resposta da pendência " + p.id + ": veja os campos.", "error");
      if (!form.querySelector("[aria-invalid=true]")) form.elements.resposta.focus();
    } catch (err) {
      Widget.fieldError(form, "documento", "Não foi possível ler o arquivo: " + (err && err.message || err));
      Widget.status(status, "A resposta não foi enviada.", "error");
    } finally {
      button.disabled = false;
    }
  }

  let started = false;
  Widget.everyToken(() => {
    reload();
    if (started) return;
    started = true;
    Widget.follow({ types: "proposta.*", subject: "numeroProposta:" + numero }, () => reload(),
      (state) => { if (state === "open") reload(); });
  });
})();
