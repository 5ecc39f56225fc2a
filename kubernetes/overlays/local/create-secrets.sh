#!/usr/bin/env bash
# Creates the Secrets of ../../secrets.txt in namespace agora of the current kubectl context, with fresh random
# values, for a laptop cluster (the local overlay has no S3 stores, so their Secrets are not needed). Writes the
# first admin client's secret to ./admin-client-secret (git-ignored). Run once before
# `kubectl apply -k kubernetes/overlays/local`; running it again replaces nothing that exists.
set -euo pipefail
cd "$(dirname "$0")"
namespace=agora
random() { openssl rand -base64 48 | tr -d '\n/+=' | cut -c1-48; }
create() {
  local name=$1; shift
  if kubectl -n "${namespace}" get secret "${name}" >/dev/null 2>&1; then
    echo "secret ${name} exists: left as it is"
    return
  fi
  kubectl -n "${namespace}" create secret generic "${name}" "$@" >/dev/null
  echo "secret ${name} created"
}
kubectl get namespace "${namespace}" >/dev/null 2>&1 || kubectl create namespace "${namespace}"
signing_key=$(openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 2>/dev/null | grep -v -- ----- | tr -d '\n')
create agora-jwt --from-literal=signing-key="${signing_key}"
create agora-service-clients --from-literal=catalog-client-secret="$(random)" \
  --from-literal=order-client-secret="$(random)"
for role in catalog orders exchange identity; do
  create "agora-db-${role}" --type=kubernetes.io/basic-auth --from-literal=username="${role}" \
    --from-literal=password="$(random)"
done
if [[ ! -f admin-client-secret ]]; then
  umask 077
  random > admin-client-secret
fi
create agora-identity-seed --from-literal=identity-seed.properties="admin.client-id=agora-admin
admin.client-secret=$(cat admin-client-secret)"
# The exchange's XML TLS: a throwaway CA, the server's certificate and client certificates, made by the compose
# script into ./exchange-xml (git-ignored); clients use its admin.p12 and desk-1001.p12.
if [[ ! -f exchange-xml/server.key ]]; then
  EXCHANGE_CERTS_DIR="$(pwd)/exchange-xml" bash ../../../docker/secrets/make-exchange-certs.sh >/dev/null
fi
create agora-exchange-xml-tls --from-file=server.crt=exchange-xml/server.crt \
  --from-file=server.key=exchange-xml/server.key --from-file=clients-ca.crt=exchange-xml/clients-ca.crt
