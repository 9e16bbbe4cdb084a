// The types of eslint.config.js's exports, for the test that lints a bad import per room
// (test/tooling/room-boundaries.test.ts); the project does not type-check JavaScript.
import type { Linter } from 'eslint';

export interface Room {
  name: string;
  files: string[];
  except?: string[];
  may?: string[];
  typesOnly?: string[];
  packages?: string[];
  why: string;
}

export const ROOMS: Room[];

declare const config: Linter.Config[];
export default config;
