// GET /{address} (a shortId), GET /{address}/{permalink} (address: @<userPath|teamPath>): the read-only page of a note
// anonymous readers may see, at its publishLink; GET /_page/{asset}: the pages' stylesheet and icon.
import middy from '@middy/core';
import httpHeaderNormalizer from '@middy/http-header-normalizer';
import { servedFrom } from '#lib/http/api.ts';
import type { ApiEvent, ApiResult } from '#lib/http/types.ts';
import { pageAsset, pageError, pageResponse } from '#lib/notes/pages/http.ts';
import { addressOf } from '#lib/notes/pages/model.ts';
import { pages } from '#lib/notes/pages/wiring.ts';

export const handler = middy<ApiEvent, ApiResult>()
  .use(httpHeaderNormalizer())
  .handler(async (event) =>
    servedFrom(event, async () =>
      event.resource.startsWith('/_page/')
        ? pageAsset(event)
        : pageResponse(event, await pages().find(addressOf(event.pathParameters ?? {}))),
    ),
  )
  .onError(async (request) => {
    if (!(request.error as { kind?: string })?.kind) console.error('note page failed', request.error);
    request.response = servedFrom(request.event, () => pageError(request.event, request.error));
  });
