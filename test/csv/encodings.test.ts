// Files in encodings beyond Western Europe, written here with iconv-lite as Excel and older tools
// save them, imported through the core: found by the detector, or named by the user.
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { detectEncoding } from '../../main/csv/decode';
import { testWorkspace } from '../support/workspace';
import { csvFiles } from '../support/csv-files';
import { call } from '../../main/core/operations';

const { fixture } = csvFiles('encodings');
const workspace = () => testWorkspace({ now: () => Date.UTC(2026, 10, 22, 12) });

const catalog = (header: string, rows: [string, string][]) =>
  `${header}\n${rows.map(([name, description], i) => `P${i};${name};${i + 1},50;${description}`).join('\n')}\n`;

const FILES = {
  'windows-1251': catalog('артикул;название;цена;описание', [
    ['Хлеб ржаной', 'Свежий ржаной хлеб из печи каждый день по старому рецепту'],
    ['Булочка с маком', 'Сладкая выпечка с маком и сахаром, которую любят дети'],
    ['Пирог сливовый', 'Сливовый пирог с крошкой, съешь же ещё этих мягких французских булок'],
  ]),
  'windows-1250': catalog('sku;nazwa;cena;opis', [
    ['Chleb żytni', 'Świeży chleb żytni z pieca każdego dnia według starej receptury'],
    ['Bułka z makiem', 'Słodkie pieczywo z makiem i cukrem, które kochają dzieci'],
    ['Placek śliwkowy', 'Zażółć gęślą jaźń, placek ze śliwkami i kruszonką'],
  ]),
  'iso-8859-2': catalog('sku;název;cena;popis', [
    ['Žitný chléb', 'Čerstvý chléb z pece každý den, upečený podle starého receptu'],
    ['Rohlík s mákem', 'Sladké pečivo s mákem a cukrem, které děti milují'],
    ['Koláč švestkový', 'Švestkový koláč s drobenkou, příliš žluťoučký kůň úpěl ďábelské ódy'],
    ['Chléb kváskový', 'Kváskový chléb s kmínem, vydrží čerstvý několik dní'],
    ['Buchta tvarohová', 'Tvarohové buchty od babičky, měkké a voňavé'],
    ['Štrúdl jablečný', 'Jablečný závin se skořicí a rozinkami, podávaný teplý'],
  ]),
  shift_jis: catalog('商品コード;商品名;価格;説明', [
    ['ライ麦パン', '毎日焼きたてのライ麦パンです'],
    ['あんパン', '北海道産の小豆を使った甘いパン'],
    ['メロンパン', 'さくさくのクッキー生地をのせたパン'],
  ]),
} as const;

// The header rows above are in their own languages; the mapping names the columns.
const MAPPINGS = {
  'windows-1251': { sku: 'артикул', name: 'название', price: 'цена', description: 'описание' },
  'windows-1250': { sku: 'sku', name: 'nazwa', price: 'cena', description: 'opis' },
  'iso-8859-2': { sku: 'sku', name: 'název', price: 'cena', description: 'popis' },
  shift_jis: { sku: '商品コード', name: '商品名', price: '価格', description: '説明' },
} as const;

describe('encodings found by the detector', () => {
  it.each(Object.keys(FILES) as (keyof typeof FILES)[])('reads %s', async (encoding) => {
    const pressroom = workspace();
    const path = fixture(iconv.encode(FILES[encoding], encoding));
    const result = await call(pressroom, 'importFile', {
      kind: 'products',
      path,
      mapping: MAPPINGS[encoding],
    });
    expect(result).toMatchObject({
      encoding,
      invalid: 0,
      inserted: FILES[encoding].split('\n').length - 2,
    });
    const names = FILES[encoding]
      .split('\n')
      .slice(1, -1)
      .map((line) => line.split(';')[1]);
    expect(pressroom.store.products.list().map((p) => p.name)).toEqual(names);
  });
});

describe('an encoding named by the user', () => {
  it('overrides the detection, and the result says which was used', async () => {
    const pressroom = workspace();
    // Short and ambiguous: no detector can tell this Cyrillic from Western text for sure.
    const path = fixture(iconv.encode('sku,name,price\nA,Пирог,3\n', 'windows-1251'));
    const guessed = await call(pressroom, 'importFile', { kind: 'products', path, dryRun: true });
    expect(guessed.encoding).not.toBe('windows-1251');
    const named = await call(pressroom, 'importFile', {
      kind: 'products',
      path,
      encoding: 'windows-1251',
    });
    expect(named.encoding).toBe('windows-1251');
    expect(pressroom.store.products.list()[0]?.name).toBe('Пирог');
  });
});

describe('UTF-8 as Node checks it', () => {
  it.each([
    ['a surrogate (U+D800)', [0xed, 0xa0, 0x80]],
    ['an overlong slash', [0xe0, 0x80, 0xaf]],
    ['a code point above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('is not UTF-8 with %s', (_, bytes) => {
    const sample = Buffer.from([...Buffer.from('name,price\nx'), ...bytes, ...Buffer.from(',1\n')]);
    expect(detectEncoding(sample).encoding).not.toBe('utf-8');
  });

  it('is UTF-8 when only the sample’s last character is cut off', () => {
    const bytes = Buffer.from('name\n日本', 'utf8');
    expect(detectEncoding(bytes.subarray(0, bytes.length - 1)).encoding).toBe('utf-8');
    expect(detectEncoding(bytes.subarray(0, bytes.length - 2)).encoding).toBe('utf-8');
  });
});
