// A CommonJS file importing replan: the packages are ESM only, so TypeScript must refuse this (TS1479).
import { Runner } from '@replan/core';

export const runner = Runner;
