// Path parameters that are numbers (a partition id, a broker id): a pipe per parameter, so that a handler receives
// the number, and a bad one is 400 (error_code 400) naming the parameter, as application/params.ts words it.
import type { PipeTransform } from '@nestjs/common';
import { integerParam } from '../../application/params.js';

export class IntegerParamPipe implements PipeTransform<string, number> {
  constructor(private readonly name: string) {}

  transform(raw: string): number {
    return integerParam(raw, this.name);
  }
}

export const PARTITION_ID = new IntegerParamPipe('partition_id');
export const BROKER_ID = new IntegerParamPipe('broker_id');
