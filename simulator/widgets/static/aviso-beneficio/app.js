// Benefit notice: reads the enrollment (GET /insurer/v1/inscricao/{id},
// scope apiseguradora, or /customer/v1/inscricao/{id}, scope apicliente)
// and its offer's coverages (GET /insurer/v1/modeloproposta/{codigo}),
// then gives the notice (POST /benefits/v1/beneficio, scope apibeneficio)
// and tells the host the benefit it created.
"use strict";
(function () {
  const { el } = Widget;
  const inscricao = Widget.param("inscricao") || Widget.param("inscricaoId");
  const status = document.getElementById("status");
  const form = document.getElementById("aviso");
  const resumo = document.getElementById("inscricao");
  if (!/^\d+$/.test(inscricao)) {
    Widget.status(status, "Informe a inscrição no endereço do widget: ?inscricao=ID.", "error");
    return;
  }
  document.getElementById("titulo").textContent = "Aviso de benefício da inscrição " + inscricao;

  // The notice causes (schemas/insurance/beneficio.common.json) and the
  // catalogue causas whose coverages pay each, as the insurer decides
  // (simulator/insurance/beneficio_aviso.go, causas). Here it only sorts
  // the list: the insurer still says whether the enrollment covers it.
  const causas = [
    { codigo: "MORTE", nome: "Morte", pagam: [1] },
    { codigo: "MORTE_ACIDENTAL", nome: "Morte acidental", pagam: [2, 1] },
    { codigo: "INVALIDEZ_TOTAL_POR_ACIDENTE", nome: "Invalidez total por acidente", pagam: [3] },
    { codigo: "INVALIDEZ_PARCIAL_POR_ACIDENTE", nome: "Invalidez parcial por acidente", pagam: [3] },
    { codigo: "DOENCA_GRAVE", nome: "Doença grave", pagam: [4] },
    { codigo: "FUNERAL", nome: "Funeral", pagam: [5] },
    { codigo: "INTERNACAO_HOSPITALAR", nome: "Internação hospitalar", pagam: [] },
  ];
  const reais = (v) => Number(v).toLocaleString("pt-BR", { style: "currency", currency: "BRL" });
  const cpfMask = (c) => /^\d{11}$/.test(c) ? c.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, "$1.$2.$3-$4") : c;

  let enrollment = null;
  let key = Widget.newKey();

  async function load() {
    let r = await Widget.call("GET", "/insurer/v1/inscricao/" + inscricao);
    if (r.status === 403) r = await Widget.call("GET", "/customer/v1/inscricao/" + inscricao);
    if (r.status !== 200 || !r.body || !r.body.Valor) {
      Widget.status(status, r.status === 404 ? "A inscrição " + inscricao + " não existe ou não é desta empresa." :
        Widget.problem(r, "inscrições (escopo apiseguradora ou apicliente)"), "error");
      Widget.post({ event: "erro", widget: "aviso-beneficio", status: r.status, mensagens: Widget.messages(r.body) });
      return;
    }
    enrollment = r.body.Valor;
    // The offer names the coverages and what they pay; without it (a
    // token without apiseguradora) they are listed by their ids.
    const covered = new Map();
    const o = await Widget.call("GET", "/insurer/v1/modeloproposta/" + encodeURIComponent(enrollment.codigoModeloProposta));
    if (o.status === 200 && o.body && o.body.Valor) {
      const prod = (o.body.Valor.produtos || []).find((p) => p.id === (enrollment.produto || {}).idProduto);
      for (const c of (prod && prod.coberturas) || []) covered.set(c.itemProdutoId, c);
    }
    draw(covered);
  }

  function draw(catalogue) {
    const e = enrollment;
    resumo.replaceChildren(
      el("dt", {}, "Inscrição"), el("dd", {}, String(e.inscricaoId) + " (proposta " + e.numeroProposta + ")"),
      el("dt", {}, "Produto"), el("dd", {}, (e.produto && e.produto.descricao) || e.codigoModeloProposta),
      el("dt", {}, "Segurado"), el("dd", {}, cpfMask(e.cpf)),
      el("dt", {}, "Situação"), el("dd", {}, e.status + (e.dataInicioVigencia ? ", vigente desde " + e.dataInicioVigencia : "")));
    resumo.hidden = false;

    const paid = new Set();
    const item = form.elements.itemProdutoId;
    item.replaceChildren(el("option", { value: "" }, "Todas as coberturas que pagam a causa"));
    for (const c of e.coberturas || []) {
      const cat = catalogue.get(c.itemProdutoId);
      for (const d of (cat && cat.causas) || []) paid.add(d.id);
      item.append(el("option", { value: c.itemProdutoId },
        (cat ? cat.descricaoComercial || cat.descricao : "Cobertura " + c.itemProdutoId) + " — capital " + reais(c.capitalSegurado)));
    }
    const causa = form.elements.causa;
    causa.replaceChildren(el("option", { value: "" }, "Escolha a causa"));
    const option = (c) => el("option", { value: c.codigo }, c.nome);
    if (paid.size) {
      const yes = causas.filter((c) => c.pagam.some((id) => paid.has(id)));
      const no = causas.filter((c) => !yes.includes(c));
      causa.append(el("optgroup", { label: "Cobertas por esta inscrição" }, yes.map(option)));
      if (no.length) causa.append(el("optgroup", { label: "Outras causas" }, no.map(option)));
    } else {
      causa.append(...causas.map(option));
    }
    form.elements.cpfSegurado.value = cpfMask(e.cpf || "");
    form.hidden = false;
    const fechada = e.status === "CANCELADA" || e.status === "ENCERRADA";
    Widget.status(status, fechada ? "A inscrição está " + e.status + ": a seguradora não aceita avisos sem cobertura em vigor." :
      "Preencha o aviso de benefício.", fechada ? "error" : "ok");
    Widget.post({ event: "inscricao", inscricaoId: e.inscricaoId, status: e.status });
  }

  const value = (name) => (form.elements[name].value || "").trim();

  // required checks what the insurer would refuse as missing, in words
  // next to each field, before anything is sent.
  function required() {
    let ok = true;
    for (const name of ["causa", "dataOcorrencia", "cpfSegurado", "comunicante.nome", "comunicante.relacao", "comunicante.tipoDocumento", "comunicante.documento"]) {
      if (!value(name)) {
        Widget.fieldError(form, name, "Preencha este campo.");
        ok = false;
      }
    }
    const files = form.elements.documentos.files;
    if (files.length > 10) { Widget.fieldError(form, "documentos", "Envie no máximo 10 arquivos."); ok = false; }
    for (const f of files) {
      if (f.size > Widget.maxDocument) { Widget.fieldError(form, "documentos", f.name + " tem mais de 5 MB."); ok = false; }
    }
    if (!ok) form.querySelector("[aria-invalid=true]").focus();
    return ok;
  }

  async function body() {
    const digits = (s) => s.replace(/\D/g, "");
    const cpf = value("cpfSegurado");
    const b = {
      inscricaoId: Number(inscricao),
      cpfSegurado: digits(cpf).length === 11 ? digits(cpf) : cpf,
      causa: value("causa"),
      dataOcorrencia: value("dataOcorrencia"),
      comunicante: {
        nome: value("comunicante.nome"), tipoDocumento: value("comunicante.tipoDocumento"),
        documento: value("comunicante.documento"), relacao: value("comunicante.relacao"),
      },
    };
    if (value("itemProdutoId")) b.itemProdutoId = Number(value("itemProdutoId"));
    if (value("horaOcorrencia")) b.horaOcorrencia = value("horaOcorrencia");
    if (value("descricaoOcorrencia")) b.descricaoOcorrencia = value("descricaoOcorrencia");
    if (value("comunicante.email")) b.comunicante.email = value("comunicante.email");
    if (value("comunicante.telefone")) b.comunicante.telefone = value("comunicante.telefone");
    const files = [...form.elements.documentos.files];
    if (files.length) {
      const tipo = value("documentos.tipo");
      b.documentos = [];
      for (const f of files) b.documentos.push(Object.assign({ tipo }, await Widget.readFile(f)));
    }
    return b;
  }

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    Widget.clearErrors(form);
    if (!required()) {
      Widget.status(status, "Preencha os campos indicados.", "error");
      return;
    }
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    Widget.status(status, "Enviando o aviso…");
    try {
      const r = await Widget.call("POST", "/benefits/v1/beneficio", await body(), { "Idempotency-Key": key });
      // The same key again is only for a retry of a request that got no
      // answer; any answer settles it, and a corrected notice is new.
      if (r.status !== 0) key = Widget.newKey();
      if (r.status === 201 && r.body && r.body.Valor) {
        done(r.body.Valor);
        return;
      }
      const rest = Widget.fieldErrors(form, r.body, (campo) => campo === "inscricaoId" || campo === "numeroProposta" ? "" : campo);
      if (rest.length) Widget.fieldError(form, "", rest.join(" "));
      Widget.status(status, r.status === 401 ? Widget.problem(r) : "A seguradora recusou o aviso: veja os campos indicados.", "error");
      Widget.post({ event: "erro", widget: "aviso-beneficio", status: r.status, mensagens: Widget.messages(r.body) });
    } catch (err) {
      Widget.fieldError(form, "documentos", "Não foi possível ler um arquivo: " + (err && err.message || err));
      Widget.status(status, "O aviso não foi enviado.", "error");
    } finally {
      button.disabled = false;
    }
  });

  function done(v) {
    form.hidden = true;
    document.getElementById("resultado-protocolo").textContent = v.protocolo;
    document.getElementById("resultado-beneficio").textContent = String(v.beneficioId);
    document.getElementById("resultado-status").textContent = Widget.label(v.status);
    const res = document.getElementById("resultado");
    res.dataset.beneficio = v.beneficioId;
    res.hidden = false;
    document.getElementById("resultado-titulo").focus();
    Widget.status(status, "Aviso registrado: protocolo " + v.protocolo + ".", "ok");
    Widget.post({ event: "beneficio", status: "avisado", beneficioId: v.beneficioId, protocolo: v.protocolo,
      inscricaoId: v.inscricaoId, numeroProposta: v.numeroProposta });
  }

  // A new token loads the enrollment if it is not loaded yet (the first
  // token, or one that replaces an expired one); a form being filled in
  // is never redrawn.
  let loading = false;
  Widget.everyToken(async () => {
    if (enrollment || loading) return;
    loading = true;
    try { await load(); } finally { loading = false; }
  });
})();
