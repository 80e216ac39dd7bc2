/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* tls.c -- TLS for rediss:// nodes: one SSL_CTX per client, one SSL per
 * connection, carried by a libevent bufferevent_openssl so that conn.c
 * reads and writes exactly as it does in plain TCP.
 *
 * Verification is on by default: the server's chain must lead to a trusted
 * CA (the system store, or tls_ca_file / tls_ca_dir) and the certificate
 * must name the node's host (or tls_server_name): DNS names are checked with
 * SSL_set1_host, IP addresses against the certificate's IP SANs.  SNI is sent
 * for DNS names only (RFC 6066 forbids IP literals there).
 */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/x509v3.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include "conn/conn.h"

static int tls_fail(char *err, size_t errlen, const char *what, const char *arg)
{
    unsigned long e = ERR_get_error();
    const char *why = e ? ERR_reason_error_string(e) : NULL;
    if (err && errlen)
        snprintf(err, errlen, "TLS: %s%s%s: %s", what, arg ? " " : "", arg ? arg : "",
                 why ? why : "failed");
    ERR_clear_error();
    return REDLOCK_EINVAL;
}

int redlock__tls_init(void **out, const redlock_options *o, char *err, size_t errlen)
{
    SSL_CTX *ctx;

    if (!(ctx = SSL_CTX_new(TLS_client_method())))
        return tls_fail(err, errlen, "cannot create a context", NULL);
    *out = ctx;
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    if (o->tls_ca_file || o->tls_ca_dir) {
        if (SSL_CTX_load_verify_locations(ctx, o->tls_ca_file, o->tls_ca_dir) != 1)
            return tls_fail(err, errlen, "cannot load CA", o->tls_ca_file ? o->tls_ca_file : o->tls_ca_dir);
    } else if (SSL_CTX_set_default_verify_paths(ctx) != 1) {
        return tls_fail(err, errlen, "cannot load the system trust store", NULL);
    }
    if (o->tls_cert_file || o->tls_key_file) {
        if (!o->tls_cert_file || !o->tls_key_file) {
            snprintf(err, errlen, "TLS: tls_cert_file and tls_key_file go together");
            return REDLOCK_EINVAL;
        }
        if (SSL_CTX_use_certificate_chain_file(ctx, o->tls_cert_file) != 1)
            return tls_fail(err, errlen, "cannot load certificate", o->tls_cert_file);
        if (SSL_CTX_use_PrivateKey_file(ctx, o->tls_key_file, SSL_FILETYPE_PEM) != 1)
            return tls_fail(err, errlen, "cannot load key", o->tls_key_file);
        if (SSL_CTX_check_private_key(ctx) != 1)
            return tls_fail(err, errlen, "key does not match certificate", o->tls_cert_file);
    }
    SSL_CTX_set_verify(ctx, o->tls_insecure_skip_verify ? SSL_VERIFY_NONE : SSL_VERIFY_PEER, NULL);
    return 0;
}

void redlock__tls_free(void **ctx)
{
    if (*ctx)
        SSL_CTX_free(*ctx);
    *ctx = NULL;
}

static int is_ip(const char *s)
{
    unsigned char buf[16];
    return inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1;
}

struct bufferevent *redlock__tls_bev_new(const redlock__net *net, const redlock__addr *addr,
                                         evutil_socket_t fd)
{
    const char *name = net->tls_server_name ? net->tls_server_name : addr->host;
    struct bufferevent *bev;
    SSL *ssl;

    if (!net->ssl_ctx || !(ssl = SSL_new(net->ssl_ctx)))
        return NULL;
    if (name && !net->tls_insecure) {
        int ok = is_ip(name)
                 ? X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name)
                 : SSL_set1_host(ssl, name);
        if (ok != 1) {
            SSL_free(ssl);
            return NULL;
        }
    }
    if (name && !is_ip(name))
        SSL_set_tlsext_host_name(ssl, name);
    bev = bufferevent_openssl_socket_new(net->loop->base, fd, ssl, BUFFEREVENT_SSL_CONNECTING,
                                         BEV_OPT_CLOSE_ON_FREE);
    if (!bev) {
        SSL_free(ssl);
        return NULL;
    }
    /* A server that closes without close_notify (a killed master) is an
     * ordinary EOF, not a TLS error. */
    bufferevent_openssl_set_allow_dirty_shutdown(bev, 1);
    return bev;
}

int redlock__tls_describe(struct bufferevent *bev, char *buf, size_t len)
{
    SSL *ssl = bufferevent_openssl_get_ssl(bev);
    unsigned long e, last = 0;
    long vr;

    while ((e = bufferevent_get_openssl_error(bev)) != 0)
        last = e;
    vr = ssl ? SSL_get_verify_result(ssl) : X509_V_OK;
    if (vr != X509_V_OK) {
        snprintf(buf, len, "TLS: certificate verify failed: %s", X509_verify_cert_error_string(vr));
        return 1;
    }
    if (last) {
        const char *why = ERR_reason_error_string(last);
        snprintf(buf, len, "TLS: %s", why ? why : "handshake failed");
        return 1;
    }
    return 0;
}
