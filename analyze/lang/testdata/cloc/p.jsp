<%-- a JSP comment --%>
<html>
<%-- a comment
     over lines --%>
<body>
  <p>Hello</p> <%-- trailing --%>
  <% // a scriptlet comment
     out.println("x"); %>
</body>
</html>
