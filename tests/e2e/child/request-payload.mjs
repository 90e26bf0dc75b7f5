// @ts-check
/** The JSON the scenarios' executor and replanner inputs carry in their second message (see their `buildInput`). */
import { messageText } from '@replan/core';

export const payloadOf = (/** @type {import('@replan/core').ModelRequest} */ request) => JSON.parse(messageText(request.messages[1]));
