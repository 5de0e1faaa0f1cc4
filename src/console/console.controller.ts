// GET /console/ (the page) and GET /console/assets/{file} (its scripts and styles), from the build loaded at
// start-up. The console's routes are public like /openapi.yaml: the page holds no data; every call it makes to
// the API carries the user's credentials and meets the authorizer like any other client's.
import { Controller, Get, HttpException, HttpStatus, Inject, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ConsoleAsset, ConsoleAssets } from './console-assets.js';

export const CONSOLE_ASSETS = Symbol('CONSOLE_ASSETS');

@Controller('console')
export class ConsoleController {
  constructor(@Inject(CONSOLE_ASSETS) private readonly assets: ConsoleAssets | null) {}

  @Get('/')
  page(@Res({ passthrough: true }) reply: FastifyReply): Buffer {
    return this.send(reply, this.built().index);
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res({ passthrough: true }) reply: FastifyReply): Buffer {
    const asset = this.built().hashed.get(file);
    if (asset === undefined)
      throw new HttpException({ error_code: 404, message: `no console asset ${file}` }, HttpStatus.NOT_FOUND);
    return this.send(reply, asset);
  }

  private built(): ConsoleAssets {
    if (this.assets === null)
      throw new HttpException(
        { error_code: 503, message: 'Brook Console is not built: run `npm run build`' },
        HttpStatus.SERVICE_UNAVAILABLE,
      );
    return this.assets;
  }

  private send(reply: FastifyReply, asset: ConsoleAsset): Buffer {
    void reply.header('content-type', asset.contentType).header('cache-control', asset.cacheControl);
    return asset.body;
  }
}
