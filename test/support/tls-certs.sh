#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# test/support/tls-certs.sh DIR -- make a throw-away PKI for the TLS tests (nothing
# secret is committed): ca.{crt,key}, server.{crt,key} for 127.0.0.1 and
# localhost signed by ca, client.{crt,key} signed by ca, and other-ca.crt,
# a CA that signed nothing we use.
set -eu
d=$1
mkdir -p "$d"
cd "$d"
q() { "$@" >/dev/null 2>&1; }
q openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=redlock test CA" \
    -keyout ca.key -out ca.crt
q openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj "/CN=some other CA" \
    -keyout other-ca.key -out other-ca.crt
q openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=localhost" -keyout server.key -out server.csr
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > server.ext
q openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 \
    -extfile server.ext -out server.crt
q openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=redlock client" -keyout client.key -out client.csr
printf 'extendedKeyUsage=clientAuth\n' > client.ext
q openssl x509 -req -in client.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 2 \
    -extfile client.ext -out client.crt
chmod 644 ./*.key
# expired.{crt,key}: signed by ca, valid for one day in 2021 (needs faketime)
q openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=localhost" \
    -keyout expired.key -out expired.csr
q faketime '2021-01-01 00:00:00' openssl x509 -req -in expired.csr -CA ca.crt -CAkey ca.key \
    -CAcreateserial -days 1 -extfile server.ext -out expired.crt
chmod 644 ./*.key
