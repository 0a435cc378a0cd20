// data7.cjs is a partner's code on data7-pix, a community client for
// several PSPs, in its Sicredi flavour, written from its README:
// PixSicredi.config({cert_path, key_path, ca_path, chave_pix, client_id,
// client_secret, sandbox: true}) with the PEM bundle the portal issued
// (key and certificate in one file), then its methods. HOMOLOGA_PHASE
// names the calls: "charges" (cob and webhook) or "pix" (after a
// payment).
'use strict';
const run = require('./run.cjs');
const { PixSicredi } = require('data7-pix');
const env = process.env;

PixSicredi.config({
  cert_path: env.HOMOLOGA_PEM,
  key_path: env.HOMOLOGA_PEM,
  ca_path: env.HOMOLOGA_CA,
  chave_pix: env.HOMOLOGA_CHAVE,
  client_id: env.HOMOLOGA_CLIENT_ID,
  client_secret: env.HOMOLOGA_CLIENT_SECRET,
  sandbox: true,
});
const tag = env.HOMOLOGA_TAG;
const txid = (n) => (tag + 'datasete' + n).padEnd(30, '0');
const now = Date.now();
const filtros = { data_inicio: new Date(now - 3600e3).toISOString(), data_fim: new Date(now + 3600e3).toISOString() };
const is = (field, want) => (a) => (a && a[field] === want ? '' : 'want ' + field + ' ' + JSON.stringify(want));
const yes = (a) => (a === true ? '' : 'want true');

const charges = [
  ['criar_cobranca', () => PixSicredi.criar_cobranca({ tx_id: txid(1), valor: '10.00', solicitacaoPagador: 'Mensalidade' }), is('status', 'ATIVA')],
  ['consultar_cobranca', () => PixSicredi.consultar_cobranca(txid(1)), is('tx_id', txid(1))],
  ['alterar_cobranca', () => PixSicredi.alterar_cobranca({ tx_id: txid(1), valor: '12.00' }), is('valor', '12.00')],
  ['listar_cobrancas', () => PixSicredi.listar_cobrancas(filtros), (a) => (a && Array.isArray(a.cobrancas) ? '' : 'want cobrancas')],
  ['criar_cobranca (another)', () => PixSicredi.criar_cobranca({ tx_id: txid(2), valor: '5.00' }), is('status', 'ATIVA')],
  ['cancelar_cobranca', () => PixSicredi.cancelar_cobranca(txid(2)), yes],
  ['registrar_webhook', () => PixSicredi.registrar_webhook(env.HOMOLOGA_WEBHOOK), yes],
  ['consultar_webhook', () => PixSicredi.consultar_webhook(), is('webhookUrl', env.HOMOLOGA_WEBHOOK)],
  ['deletar_webhook', () => PixSicredi.deletar_webhook(), yes],
];

const e2e = env.HOMOLOGA_E2E;
const pix = [
  ['listar_pix_recebidos', () => PixSicredi.listar_pix_recebidos(filtros), (a) => (a && Array.isArray(a.pix) ? '' : 'want pix')],
  ['consultar_pix_recebido', () => PixSicredi.consultar_pix_recebido(e2e), is('e2eid', e2e)],
  ['devolver_pix_recebido', () => PixSicredi.devolver_pix_recebido(e2e, tag + 'dev1', 1)],
  ['consultar_pix_devolvido', () => PixSicredi.consultar_pix_devolvido(e2e, tag + 'dev1')],
];

run(env.HOMOLOGA_PHASE === 'pix' ? pix : charges);
