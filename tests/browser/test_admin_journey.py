"""An operator: log in with the seeded admin → create a unit and a space with a price (a rule and
a blackout added and removed on the way) → a member books the new space → the operator sees the
booking in the unit's day and confirms it (sandbox) → finds the member and the confirmation in
users and in the audit trail."""

from __future__ import annotations

import uuid

from journeys import go_to_day, pick_slot, sign_in


def test_admin_creates_a_space_with_a_price_and_confirms_a_members_booking(browser, server, booking_day):
    ui = browser(size=(1280, 900))
    unidade = f"CoworkFlow Recife {uuid.uuid4().hex[:4]}"
    espaco = "Sala Capibaribe"

    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.wait_text("Auditoria", "#menu")  # the operator part of the menu
    ui.step("operador entrou")

    # a unit
    ui.menu("Unidades")
    ui.wait_heading("Unidades")
    ui.wait_text("CoworkFlow Paulista")
    ui.click("Nova unidade")
    ui.wait_heading("Nova unidade")
    ui.fill("Nome da unidade", unidade)
    ui.fill("Logradouro", "Rua da Aurora")
    ui.fill("Número", "325")
    ui.fill("Bairro", "Boa Vista")
    ui.fill("Cidade", "Recife")
    ui.choose("UF", "PE")
    ui.fill("CEP", "50050-000")
    ui.fill("Fuso horário (IANA)", "America/Recife")
    ui.fill("Multa depois disso (% do total)", "30")
    ui.step("nova unidade")
    ui.click("Cadastrar unidade")
    ui.wait_heading("Espaços")
    ui.wait_text(f"Unidade {unidade} cadastrada", "#flash")
    assert ui.value("Unidade") == unidade
    ui.wait_text("Nenhum espaço ativo nesta unidade.")
    ui.step("unidade cadastrada")

    # a space in it
    ui.click("Novo espaço")
    ui.wait_heading("Novo espaço")
    assert ui.value("Unidade") == unidade
    ui.fill("Nome", espaco)
    ui.choose("Tipo", "Sala de reunião")
    ui.fill("Capacidade (pessoas)", "6")
    ui.fill("Comodidades", "projetor, café")
    ui.step("novo espaço")
    ui.click("Cadastrar espaço")
    ui.wait_heading(f"Preços — {espaco}")
    ui.wait_text("Defina a tabela de preços", "#flash")
    ui.step("espaço cadastrado, sem preço")

    # its price
    ui.fill("Por hora (R$)", "90,00")
    ui.fill("Meio período (R$)", "300,00")
    ui.fill("Diária (R$)", "550,00")
    ui.click("Definir preços")
    ui.wait_text(f"Preços de {espaco} salvos: R$ 90,00 por hora.", "#flash")
    ui.wait_text("Nenhuma regra: vale o preço base.")
    ui.step("preços definidos")

    # a peak-hour rule, then removed
    ui.choose("Tipo de regra", "Horário de pico")
    ui.click("Adicionar regra")
    ui.wait_text('Regra "Horário de pico" adicionada.', "#flash")
    rule = ui.row("Horário de pico")
    assert "seg, ter, qua, qui, sex, 09:00–12:00: preço × 150 %" in rule.text, rule.text
    ui.step("regra de pico")
    ui.click("Remover", rule)
    ui.click("Remover regra", ui.dialog())
    ui.wait_text("Regra removida.", "#flash")
    ui.wait_text("Nenhuma regra: vale o preço base.")

    # a blackout, then removed
    ui.click_link("Bloqueios", ".tabs")
    ui.wait_heading(f"Bloqueios — {espaco}")
    ui.set_value("Data de início", booking_day.isoformat())
    ui.set_value("Data de fim", booking_day.isoformat())
    ui.fill("Descrição", "pintura")
    ui.click("Agendar bloqueio")
    ui.wait_text("Bloqueio agendado.", "#flash")
    blackout = ui.row("pintura")
    assert f"{booking_day:%d/%m/%Y}, 08:00–12:00" in blackout.text and "Manutenção" in blackout.text, blackout.text
    ui.step("bloqueio agendado")
    ui.click("Remover", blackout)
    ui.click("Remover bloqueio", ui.dialog())
    ui.wait_text("Bloqueio removido.", "#flash")
    ui.wait_text("Nenhum bloqueio agendado.")

    # the space is in the unit's list with its price
    ui.menu("Espaços e preços")
    ui.wait_heading("Espaços")
    ui.choose("Unidade", unidade)
    listed = ui.row(espaco)
    assert "R$ 90,00" in listed.text and "Sala de reunião" in listed.text, listed.text
    ui.step("espaço na lista da unidade")
    ui.sign_out()

    # a member books it
    sign_in(ui, *server.member, expect_heading="Encontre um espaço")
    ui.choose("Unidade", unidade)
    ui.click("Buscar")
    ui.wait_text("1 espaço")
    ui.click_link("Ver disponibilidade", ".cards")
    ui.wait_heading(espaco)
    go_to_day(ui, booking_day)
    pick_slot(ui, "14:00")
    assert ui.value("Fim") == "15:00 (1 h)"
    ui.click("Ver preço")
    ui.wait_text("R$ 90,00", ".quote")
    ui.click("Reservar", ".quote")
    ui.wait_text("Reserva solicitada!", ".result")
    ui.step("membro reservou o espaço novo")
    ui.sign_out()

    # the operator sees it in the unit's day and confirms it
    sign_in(ui, *server.admin, expect_heading="Reservas do dia")
    ui.choose("Unidade", unidade)
    ui.wait_idle()
    go_to_day(ui, booking_day)
    booking = ui.row(espaco)
    assert "14:00–15:00" in booking.text and "Membro Demo" in booking.text and "Aguardando pagamento" in booking.text, booking.text
    assert "R$ 90,00" in booking.text, booking.text
    ui.step("reserva no dia da unidade")
    ui.click("Confirmar pagamento", booking)
    dialog = ui.dialog()
    assert "sandbox" in dialog.text, dialog.text
    ui.click("Confirmar reserva", dialog)
    ui.wait_text(f"Reserva de {espaco} confirmada.", "#flash")
    ui.wait(lambda d: "Confirmada" in ui.row(espaco).text, "the booking never showed as confirmed")
    ui.step("reserva confirmada")

    # users: find the member
    ui.menu("Usuários")
    ui.wait_heading("Usuários")
    ui.fill("E-mail contém", "membro@demo")
    ui.click("Filtrar")
    ui.wait_url("email=membro")
    member = ui.row("membro@demo.coworkflow")
    assert "Membro Demo" in member.text and "Membro" in member.text, member.text
    ui.step("usuários filtrados")

    # audit trail: the confirmation, by type
    ui.menu("Auditoria")
    ui.wait_heading("Trilha de auditoria")
    ui.fill("Tipo de evento", "ReservaConfirmada")
    ui.click("Filtrar")
    ui.wait_url("tipo=ReservaConfirmada")
    event = ui.row("ReservaConfirmada")
    assert "reservas" in event.text, event.text
    ui.step("auditoria da confirmação")
