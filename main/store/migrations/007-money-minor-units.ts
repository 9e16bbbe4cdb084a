// Workspace database, migration 7 (Node, main process; released, so never edited): money: amounts
// in ISO 4217 minor units where CLDR’s display digits differed.
import { rescaleToIsoMinorUnits } from '../../sqlite/iso-minor-units';
import type { Migration } from './migration';

export const migration007: Migration = {
  version: 7,
  name: 'money: amounts in ISO 4217 minor units where CLDR’s display digits differed',
  // Minor digits came from ICU, which gives CLDR's display digits (HUF 0, where ISO 4217 has 2).
  // Stored amounts in those currencies are rescaled to keep their value (docs/architecture.md).
  sql: rescaleToIsoMinorUnits([
    { table: 'products', amount: 'price_minor', currency: 'currency' },
    { table: 'import_replaced', amount: 'price_minor', currency: 'currency' },
    { table: 'orders', amount: 'total_minor', currency: 'currency' },
  ]),
};
