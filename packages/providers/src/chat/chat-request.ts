import type { ModelRequest, ModelSettings, ResponseFormat, ToolChoice, ToolSpec } from '@replan/core';
import type { ProviderProfileName } from '../profiles/provider-profile.js';
import { cacheKeyFields, markChatBreakpoints, type PromptCaching } from '../cache/prompt-caching.js';
import { mediaProfile, type MediaProfileName } from '../media/media-profile.js';
import type { Json } from '../reasoning/json.js';
import { isEmptySchema, jsonSchemaOf, strictSchemaError, toStrictJsonSchema } from '../schema/strict-json-schema.js';
import { toChatMessages } from './chat-messages.js';
import { mergeSettings, settingsFields } from './chat-settings.js';

export interface ChatRequestOptions {
  readonly model: string;
  readonly profile: ProviderProfileName;
  readonly googleEndpoint: boolean;
  readonly defaults?: ModelSettings;
  /** How `req.cache` is sent (default `none`). */
  readonly caching?: PromptCaching;
  /** What the server takes as images and files (default `generic`: OpenAI's shapes and image types). */
  readonly media?: MediaProfileName;
  /** The image types the model takes, replacing the media profile's (`OpenAIChatModel`'s `imageTypes`). */
  readonly imageTypes?: ReadonlySet<string>;
}

/** A Chat Completions body, and the original schema of a strict structured answer (to undo optional → nullable). */
export interface ChatRequestBody {
  readonly body: Json;
  readonly structuredSchema?: Json;
}

/** Builds the Chat Completions request body (without `stream`). Throws a `ConfigurationError` before sending a schema strict mode cannot express. */
export function buildChatRequest(req: ModelRequest, options: ChatRequestOptions): ChatRequestBody {
  const target = { profile: options.profile, googleEndpoint: options.googleEndpoint };
  const profile = mediaProfile(options.media ?? 'generic');
  const media = { profile: options.imageTypes ? { ...profile, images: options.imageTypes } : profile, model: options.model };
  const body: Json = { model: options.model, messages: toChatMessages(req.messages, target, media) };
  if (req.tools?.length) {
    body.tools = req.tools.map(toolOf);
    if (req.toolChoice) body.tool_choice = toolChoiceOf(req.toolChoice);
  }
  let structuredSchema: Json | undefined;
  if (req.responseFormat) {
    const format = responseFormatOf(req.responseFormat);
    body.response_format = format.body;
    structuredSchema = format.original;
  }
  if (req.cache && options.caching === 'key') Object.assign(body, cacheKeyFields(req.cache));
  if (req.cache && options.caching === 'breakpoints') markChatBreakpoints(body, req.cache);
  Object.assign(body, settingsFields(options.profile, options.googleEndpoint, mergeSettings(options.defaults, req.settings)));
  return structuredSchema ? { body, structuredSchema } : { body };
}

function toolOf(spec: ToolSpec): Json {
  const parameters: Json = { ...spec.parameters };
  delete parameters.$schema;
  if (isEmptySchema(parameters)) Object.assign(parameters, { type: 'object', properties: {} });
  return { type: 'function', function: { name: spec.name, description: spec.description, parameters } };
}

function toolChoiceOf(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** `json_schema` response format: strict (the default) or, with `strict: false`, the schema as given — never empty. */
export function responseFormatOf(format: ResponseFormat): { body: Json; original: Json | undefined; schema: Json; name: string } {
  const name = format.name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'response';
  const strict = format.strict !== false;
  const original = jsonSchemaOf(format.schema, format.name);
  let schema: Json;
  if (strict) schema = toStrictJsonSchema(original, format.name);
  else {
    if (isEmptySchema(original)) throw strictSchemaError(format.name, '', 'the schema is empty (it describes nothing)');
    schema = original;
  }
  return {
    body: {
      type: 'json_schema',
      json_schema: { name, ...(format.description ? { description: format.description } : {}), schema, strict },
    },
    original: strict ? original : undefined,
    schema,
    name,
  };
}
