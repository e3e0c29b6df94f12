/**
 * The header carrying the client's address from the public server (which
 * sets it from the socket on every request, over whatever the client sent)
 * to the REST facade, the gateway and the OAuth pages.
 */
export const clientAddressHeader = 'x-earshot-client-address';
