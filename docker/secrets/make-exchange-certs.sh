#!/usr/bin/env bash
# Makes the certificates of the exchange's XML port (TLS with client certificates) for a LOCAL compose cluster:
# a throwaway CA, the exchanges' server certificate, an admin client certificate (may <create> accounts and
# shares) and a trading one (may trade on account 1001 only). Real deployments get theirs from their own CA.
#
#   docker/secrets/make-exchange-certs.sh            # writes docker/secrets/exchange-xml/
#   EXCHANGE_CERTS_DIR=/some/dir make-exchange-certs.sh
#
# Nothing it writes is committed (docker/secrets/.gitignore ignores everything but this script, the README and
# the example). It refuses to overwrite an existing set: delete the folder to make a new one, then restart the
# exchanges. What the exchanges read (compose mounts docker/secrets at /run/agora-secrets):
#   server.crt   the exchanges' certificate chain (names exchange-1, exchange-2, edge, localhost, 127.0.0.1)
#   server.key   its private key (PKCS#8 PEM); readable by the containers' user, see docker/secrets/README.md
#   clients-ca.crt   the CA whose client certificates the exchanges accept (their bundle's trust store)
# What clients use: admin.{crt,key,p12} (subject OU=exchange-admin), desk-1001.{crt,key,p12} (subject UID=1001),
# and clients-ca.crt to verify the server. The .p12 files (password: EXCHANGE_CERTS_P12_PASSWORD, default
# "changeit") are for Java clients' key stores. ca.key signs more client certificates; keep it to yourself.
set -euo pipefail

dir="${EXCHANGE_CERTS_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/exchange-xml}"
days="${EXCHANGE_CERTS_DAYS:-365}"
p12_password="${EXCHANGE_CERTS_P12_PASSWORD:-changeit}"

command -v openssl >/dev/null 2>&1 || { echo "make-exchange-certs: openssl is needed" >&2; exit 1; }
if [[ -e "${dir}/ca.key" || -e "${dir}/server.key" ]]; then
  echo "make-exchange-certs: ${dir} already holds certificates; delete it to make new ones" >&2
  exit 1
fi
mkdir -p "${dir}"
cd "${dir}"
umask 077
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# A P-256 key, PKCS#8 PEM (what Spring Boot's PEM SSL bundles read).
new_key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1"; }

# $1 name, $2 subject, $3 extensions (openssl x509 -extfile syntax): a certificate signed by the CA.
issue() {
  new_key "$1.key"
  openssl req -new -key "$1.key" -subj "$2" -out "${work}/$1.csr"
  printf '%s\n' "$3" >"${work}/$1.ext"
  openssl x509 -req -in "${work}/$1.csr" -CA clients-ca.crt -CAkey ca.key -CAcreateserial \
    -CAserial "${work}/ca.srl" -days "${days}" -sha256 -extfile "${work}/$1.ext" -out "$1.crt" 2>/dev/null
}

new_key ca.key
openssl req -x509 -new -key ca.key -subj "/CN=Agora exchange local CA" -days "${days}" -sha256 \
  -addext "basicConstraints=critical,CA:true" -addext "keyUsage=critical,keyCertSign,cRLSign" -out clients-ca.crt

issue server "/CN=exchange" "basicConstraints=CA:false
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=DNS:exchange-1,DNS:exchange-2,DNS:edge,DNS:localhost,IP:127.0.0.1"
issue admin "/CN=exchange-admin/OU=exchange-admin" "basicConstraints=CA:false
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth"
issue desk-1001 "/CN=desk-1001/UID=1001" "basicConstraints=CA:false
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth"

for client in admin desk-1001; do
  openssl pkcs12 -export -in "${client}.crt" -inkey "${client}.key" -certfile clients-ca.crt -name "${client}" \
    -passout "pass:${p12_password}" -out "${client}.p12"
done

# The exchanges run as uid 10001 and read these three through the read-only mount; the rest stays the owner's.
chmod 644 clients-ca.crt server.crt server.key
echo "make-exchange-certs: wrote ${dir}: server.crt, server.key, clients-ca.crt for the exchanges;"
echo "  admin.* (may create accounts and shares) and desk-1001.* (trades on account 1001) for clients."
