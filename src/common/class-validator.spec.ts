import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import * as facade from './class-validator.js';

const requireModule = createRequire(import.meta.url);

const loaded = (name: string) =>
  Object.keys(requireModule.cache).some((path) => path.includes(`/node_modules/${name}/`));

class Entry {
  @facade.IsOptional()
  @facade.ValidateBy({ name: 'isName', validator: { validate: (value) => typeof value === 'string' } })
  name?: unknown;
}

class Body {
  @facade.ValidateIf((body: Body) => body.entries !== undefined)
  @facade.ValidateNested({ each: true })
  entries?: Entry[];
}

const bodyOf = (names: unknown[]) =>
  Object.assign(new Body(), { entries: names.map((name) => Object.assign(new Entry(), { name })) });

describe('class-validator without its index', () => {
  // first, before this file loads the index itself below
  it('leaves libphonenumber-js and validator.js unloaded', () => {
    expect(loaded('class-validator')).toBe(true);
    expect(loaded('libphonenumber-js')).toBe(false);
    expect(loaded('validator')).toBe(false);
  });

  it("exports the index's own decorators and metadata storage", async () => {
    const index = await import('class-validator');
    expect(facade.IsOptional).toBe(index.IsOptional);
    expect(facade.ValidateIf).toBe(index.ValidateIf);
    expect(facade.ValidateNested).toBe(index.ValidateNested);
    expect(facade.ValidateBy).toBe(index.ValidateBy);
    expect(facade.registerDecorator).toBe(index.registerDecorator);
    expect(facade.getMetadataStorage()).toBe(index.getMetadataStorage());
  });

  it("validates a DTO as the index's validate and validateSync do", async () => {
    const index = await import('class-validator');
    for (const body of [bodyOf(['a', undefined]), bodyOf(['a', 7, 'b', {}]), new Body()]) {
      const expected = index.validateSync(body);
      expect(facade.validateSync(body)).toEqual(expected);
      expect(await facade.validate(body)).toEqual(await index.validate(body));
      expect(await facade.CLASS_VALIDATOR_PACKAGE.validate(body)).toEqual(expected);
    }
    expect(facade.validateSync(bodyOf(['a', 7])).length).toBe(1);
  });
});
