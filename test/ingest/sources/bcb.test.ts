import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bcb } from '../../../src/ingest/sources/bcb.js';
import { combineDocuments } from '../../../src/ingest/sources/day-collector.js';
import { assertCodesOf, MORE_PROVIDER_FILES, moreProviderBytes, moreProviderText } from '../../helpers/more-provider-fixtures.js';
import { assertRefused, edited, valuesOn } from '../../helpers/provider-fixtures.js';

const EUR_FILE = 'bcb-ptax-EUR-2026-03-02_2026-03-06.json';
const EUR = '"cotacaoCompra":6.07250,"cotacaoVenda":6.07420,"dataHoraCotacao":"2026-03-02 13:09:26.433","tipoBoletim":"Fechamento"';

test('when the ten recorded currencies are parsed, then they give five days of BRL per 1 unit, the closing PTAX sell rate', async () => {
  const documents = await Promise.all(MORE_PROVIDER_FILES.bcb.map((file) => bcb.parse(moreProviderBytes('bcb', file), file)));
  const days = combineDocuments(documents, 'bcb');
  assert.deepEqual(days.map((day) => day.date), ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06']);
  assert.ok(days.every((day) => day.values.size === 10), 'ten currencies every day');
  assertCodesOf(bcb, days);
  const first = valuesOn(days, '2026-03-02');
  assert.equal(first.get('EUR'), '6.0742', 'cotacaoVenda 6.07420 (buy 6.07250)');
  assert.equal(first.get('USD'), '5.2001', 'cotacaoVenda 5.20010');
  assert.equal(first.get('JPY'), '0.03297', 'cotacaoVenda 0.03297');
  assert.equal(valuesOn(days, '2026-03-06').get('JPY'), '0.03355');
  assert.equal(first.has('BRL'), false, 'the base is implicit');
});

test('when a document comes from its URL, then the currency is the URL\'s @moeda', async () => {
  const [url] = bcb.urls({ from: '2026-03-01', to: '2026-03-07' }).filter((u) => u.endsWith('%27EUR%27'));
  const days = await bcb.parse(moreProviderBytes('bcb', EUR_FILE), url!);
  assert.equal(valuesOn(days, '2026-03-02').get('EUR'), '6.0742');
  await assertRefused(bcb, moreProviderBytes('bcb', EUR_FILE), /names no currency/);
});

test('when the recorded file is altered to be malformed, then the whole file is refused, naming the day and currency', async () => {
  const text = moreProviderText('bcb', EUR_FILE);
  const refused = async (bytes: string, message: RegExp) => {
    await assert.rejects(bcb.parse(Buffer.from(bytes), `/tmp/${EUR_FILE}`), (err: Error) => (assert.match(err.message, message), true));
  };
  await refused(edited(text, EUR, EUR.replace('6.07420', '"6.07420"')), /2026-03-02 currency=EUR "cotacaoVenda": expected a number, got the string "6.07420"/);
  await refused(edited(text, EUR, EUR.replace('6.07420', '0')), /2026-03-02 currency=EUR: rate must be greater than zero/);
  await refused(edited(text, EUR, EUR.replace('"cotacaoVenda":6.07420,', '')), /2026-03-02 currency=EUR "cotacaoVenda": expected a number, got nothing/);
  await refused(edited(text, EUR, EUR.replace('2026-03-02 13', '02-03-2026 13')), /quote #1: invalid dataHoraCotacao "02-03-2026 13:09:26.433"/);
  await refused(edited(text, EUR, EUR.replace('2026-03-02 13', '2026-03-03 13')), /2026-03-03 currency=EUR appears twice/);
  await refused(edited(text, EUR, EUR.replace('Fechamento', 'Abertura')), /2026-03-02 currency=EUR: bulletin "Abertura", expected "Fechamento"/);
  await refused('{"value":[]}', /the document holds no rates/);
  await refused('[]', /the document: expected an object/);
});

test('when URLs are asked for, then each currency\'s PTAX period is named, dates as MM-DD-YYYY', () => {
  const urls = bcb.urls({ from: '2026-03-01', to: '2026-03-07' });
  assert.equal(urls.length, 10);
  assert.equal(
    urls.find((url) => url.endsWith('%27AUD%27')),
    'https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/CotacaoMoedaPeriodo(moeda=@moeda,dataInicial=@dataInicial,dataFinalCotacao=@dataFinalCotacao)' +
      '?$filter=tipoBoletim%20eq%20%27Fechamento%27&$format=json&@dataFinalCotacao=%2703-07-2026%27&@dataInicial=%2703-01-2026%27&@moeda=%27AUD%27',
    'the recorded request',
  );
  assert.equal(bcb.urls().length, 10);
});
