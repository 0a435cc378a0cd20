// efi.cjs is a partner's code on one of Efí's published SDKs for the API
// Pix (sdk-node-apis-efi, or its predecessor gn-api-sdk-node: the same
// methods), written from their README: new EfiPay(options) with the
// sandbox's credentials and the .p12 the portal issued, then the SDK's
// methods. HOMOLOGA_SDK names the package, HOMOLOGA_PHASE the calls:
// "charges" (cob, cobv, lotecobv, loc, webhook) or "pix" (after a
// payment: the Pix received and its refund).
'use strict';
const run = require('./run.cjs');
const Sdk = require(process.env.HOMOLOGA_SDK);
const env = process.env;

const sdk = new Sdk({
  sandbox: true,
  client_id: env.HOMOLOGA_CLIENT_ID,
  client_secret: env.HOMOLOGA_CLIENT_SECRET,
  certificate: env.HOMOLOGA_CERT,
  cert_base64: false,
});
const chave = env.HOMOLOGA_CHAVE;
const tag = env.HOMOLOGA_TAG; // keeps each client's ids apart
const txid = (n) => (tag + 'efisdk' + n).padEnd(30, '0');
const now = Date.now();
const inicio = new Date(now - 3600e3).toISOString();
const fim = new Date(now + 3600e3).toISOString();
const tomorrow = new Date(now + 86400e3).toISOString().slice(0, 10);
const is = (field, want) => (a) => (a && a[field] === want ? '' : 'want ' + field + ' ' + JSON.stringify(want));
const has = (field) => (a) => (a && Array.isArray(a[field]) ? '' : 'want a list ' + field);

const cob = { calendario: { expiracao: 3600 }, valor: { original: '10.00' }, chave, solicitacaoPagador: 'Mensalidade' };
const cobv = {
  calendario: { dataDeVencimento: tomorrow, validadeAposVencimento: 30 },
  devedor: { cpf: '12345678909', nome: 'Francisco da Silva' },
  valor: { original: '123.45', multa: { modalidade: 2, valorPerc: '2.00' }, juros: { modalidade: 2, valorPerc: '0.30' } },
  chave,
  solicitacaoPagador: 'Cobrança dos serviços prestados.',
};

const charges = [
  ['pixCreateCharge', () => sdk.pixCreateCharge({ txid: txid(1) }, cob), is('status', 'ATIVA')],
  ['pixCreateImmediateCharge', () => sdk.pixCreateImmediateCharge({}, cob), is('status', 'ATIVA')],
  ['pixDetailCharge', () => sdk.pixDetailCharge({ txid: txid(1) }), is('txid', txid(1))],
  ['pixUpdateCharge', () => sdk.pixUpdateCharge({ txid: txid(1) }, { valor: { original: '12.00' } }), is('revisao', 1)],
  ['pixListCharges', () => sdk.pixListCharges({ inicio, fim }), has('cobs')],
  ['pixCreateDueCharge', () => sdk.pixCreateDueCharge({ txid: txid(2) }, cobv), is('status', 'ATIVA')],
  ['pixDetailDueCharge', () => sdk.pixDetailDueCharge({ txid: txid(2) }), is('txid', txid(2))],
  ['pixUpdateDueCharge', () => sdk.pixUpdateDueCharge({ txid: txid(2) }, { valor: { original: '130.00' } }), is('revisao', 1)],
  ['pixListDueCharges', () => sdk.pixListDueCharges({ inicio, fim }), has('cobs')],
  ['pixCreateDueChargeBatch', () => sdk.pixCreateDueChargeBatch({ id: Number(env.HOMOLOGA_LOTE) },
    { descricao: 'Cobranças dos alunos', cobsv: [Object.assign({ txid: txid(3) }, cobv), Object.assign({ txid: txid(4) }, cobv)] })],
  ['pixUpdateDueChargeBatch', () => sdk.pixUpdateDueChargeBatch({ id: Number(env.HOMOLOGA_LOTE) },
    { cobsv: [{ txid: txid(3), valor: { original: '150.00' } }] })],
  ['pixDetailDueChargeBatch', () => sdk.pixDetailDueChargeBatch({ id: Number(env.HOMOLOGA_LOTE) }), has('cobsv')],
  ['pixListDueChargeBatch', () => sdk.pixListDueChargeBatch({ inicio, fim }), has('lotes')],
  ['pixCreateLocation', () => sdk.pixCreateLocation({}, { tipoCob: 'cob' }), is('tipoCob', 'cob')],
  ['pixLocationList', () => sdk.pixLocationList({ inicio, fim }), has('loc')],
  ['pixDetailLocation', (r) => sdk.pixDetailLocation({ id: r.pixCreateLocation.id }), is('tipoCob', 'cob')],
  ['pixGenerateQRCode', (r) => sdk.pixGenerateQRCode({ id: r.pixCreateLocation.id })],
  ['pixUnlinkTxidLocation', (r) => sdk.pixUnlinkTxidLocation({ id: r.pixCreateLocation.id }), is('tipoCob', 'cob')],
  ['pixConfigWebhook', () => sdk.pixConfigWebhook({ chave }, { webhookUrl: env.HOMOLOGA_WEBHOOK })],
  ['pixDetailWebhook', () => sdk.pixDetailWebhook({ chave }), is('webhookUrl', env.HOMOLOGA_WEBHOOK)],
  ['pixListWebhook', () => sdk.pixListWebhook({ inicio, fim }), has('webhooks')],
  ['pixDeleteWebhook', () => sdk.pixDeleteWebhook({ chave })],
];

const e2e = env.HOMOLOGA_E2E;
const pix = [
  ['pixReceivedList', () => sdk.pixReceivedList({ inicio, fim }), has('pix')],
  ['pixDetailReceived', () => sdk.pixDetailReceived({ e2eId: e2e }), is('endToEndId', e2e)],
  ['pixDevolution', () => sdk.pixDevolution({ e2eId: e2e, id: tag + 'dev1' }, { valor: '1.00' }), is('status', 'EM_PROCESSAMENTO')],
  ['pixDetailDevolution', () => sdk.pixDetailDevolution({ e2eId: e2e, id: tag + 'dev1' }), is('id', tag + 'dev1')],
];

run(env.HOMOLOGA_PHASE === 'pix' ? pix : charges, sdk);
