// Components `carhere serve` starts beside the HTTP API (gateway listeners, demo fleet, …). Areas add theirs here.
import type { ComponentStarter } from './main.ts';

export const serveComponents: ComponentStarter[] = [];

import { demoFleetStarter, gatewayStarter } from './gateway/component.ts';

serveComponents.push(gatewayStarter, demoFleetStarter);
