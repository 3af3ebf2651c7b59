/**
 * One Powertools Logger for the function set. The access token is never handed to it; as a second line of
 * defence, anything that looks like an Authorization header or a token field is masked before it is written.
 */
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'gtt-gateway' });
